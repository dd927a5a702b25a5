import { AuthenticationError } from '@platform/errors';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { createApiKey } from './create-api-key.usecase';
import { Authenticator } from './authenticate.usecase';
import { bootstrapIdentity, type BootstrapResult } from './bootstrap.usecase';
import { signIn } from './sign-in.usecase';
import { signOut } from './sign-out.usecase';
import { CachingIdentityStore } from './caching-identity.store';
import { listenForIdentityChanges, type IdentityChangeFeed } from './identity-changes';

/** The real store, counting the lookups that reach the database. */
class CountingStore extends IdentityRepository {
  keyLookups = 0;
  workspaceLookups = 0;
  sessionLookups = 0;

  override findBrowserSession(tokenHash: string) {
    this.sessionLookups++;
    return super.findBrowserSession(tokenHash);
  }

  override findApiKeyByHash(keyHash: string) {
    this.keyLookups++;
    return super.findApiKeyByHash(keyHash);
  }

  override findWorkspace(id: string) {
    this.workspaceLookups++;
    return super.findWorkspace(id);
  }
}

// On an in-memory PGlite database, whose NOTIFY reaches listeners of the same instance: two caching stores on it
// stand for two gateway replicas (the Postgres version with two gateways: apps/gateway identity-cache.integration-spec).
describe('CachingIdentityStore', () => {
  let db: GatewayDatabase;
  let boot: BootstrapResult;
  const feeds: IdentityChangeFeed[] = [];

  const replica = async (options: { ttlMs?: number; now?: () => number } = {}) => {
    const inner = new CountingStore(db.prisma);
    const feed = await listenForIdentityChanges(db.notifications);
    feeds.push(feed);
    const store = new CachingIdentityStore(inner, feed, options);
    return { inner, store, auth: new Authenticator(store) };
  };

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    boot = (await bootstrapIdentity(new IdentityRepository(db.prisma)))!;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.close()));
    await db.close();
  });

  const adminCaller = async (auth: Authenticator) => auth.authenticate(boot.apiKey, boot.workspace.id);

  it('answers a known key and its workspace from memory until the TTL', async () => {
    let now = 1_000_000;
    const { inner, auth } = await replica({ ttlMs: 5_000, now: () => now });
    for (let i = 0; i < 5; i++) expect((await adminCaller(auth)).identity.tenantId).toBe(boot.workspace.id);
    expect([inner.keyLookups, inner.workspaceLookups]).toEqual([1, 1]);
    now += 5_001;
    await adminCaller(auth);
    expect([inner.keyLookups, inner.workspaceLookups]).toEqual([2, 2]);
  });

  it('refuses a key at once on the replica that revoked it, and on another once its NOTIFY arrives', async () => {
    const a = await replica();
    const b = await replica();
    const admin = await adminCaller(a.auth);
    const { record, key } = await createApiKey(a.store, admin, { description: 'to revoke', workspaceId: boot.workspace.id, role: 'member' });
    await a.auth.authenticate(key, undefined);
    await b.auth.authenticate(key, undefined);
    const lookups = b.inner.keyLookups;
    await b.auth.authenticate(key, undefined);
    expect(b.inner.keyLookups).toBe(lookups); // cached on b

    await a.store.revokeApiKey(record.id, new Date());
    await expect(a.auth.authenticate(key, undefined)).rejects.toBeInstanceOf(AuthenticationError);
    const deadline = Date.now() + 1_000;
    let refused = false;
    while (!refused && Date.now() < deadline) {
      refused = await b.auth.authenticate(key, undefined).then(
        () => false,
        (err: unknown) => err instanceof AuthenticationError,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refused).toBe(true);
  });

  it('ends a session signed out on one replica on the other too, which had it cached', async () => {
    const a = await replica();
    const b = await replica();
    const signed = await signIn(a.auth, a.store, { apiKey: boot.apiKey, workspaceId: boot.workspace.id, ttlMs: 60_000 });
    await b.auth.authenticateSession(signed.token, undefined);
    const lookups = [b.inner.sessionLookups, b.inner.keyLookups];
    expect((await b.auth.authenticateSession(signed.token, undefined)).identity.tenantId).toBe(boot.workspace.id);
    expect([b.inner.sessionLookups, b.inner.keyLookups]).toEqual(lookups); // the session and its key from memory

    await signOut(a.store, signed.caller);
    await expect(a.auth.authenticateSession(signed.token, undefined)).rejects.toBeInstanceOf(AuthenticationError);
    const deadline = Date.now() + 1_000;
    let refused = false;
    while (!refused && Date.now() < deadline) {
      refused = await b.auth.authenticateSession(signed.token, undefined).then(
        () => false,
        (err: unknown) => err instanceof AuthenticationError,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refused).toBe(true);
  });

  it('caches nothing while the feed is not live, and does not keep a lookup that a change overtook', async () => {
    const inner = new CountingStore(db.prisma);
    const feed = { live: false, subscribe: () => undefined, close: () => Promise.resolve() };
    const store = new CachingIdentityStore(inner, feed);
    const auth = new Authenticator(store);
    await adminCaller(auth);
    await adminCaller(auth);
    expect(inner.keyLookups).toBe(2);

    feed.live = true;
    // A change arrives while the lookup is under way: what it read may be older than the change.
    const lookup = adminCaller(auth);
    store.apply({ kind: 'api-key', id: 'another key' });
    await lookup;
    await adminCaller(auth);
    expect(inner.keyLookups).toBe(4);
    await adminCaller(auth);
    expect(inner.keyLookups).toBe(4);
  });
});
