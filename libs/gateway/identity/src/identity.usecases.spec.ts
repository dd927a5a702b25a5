import { randomUUID } from 'node:crypto';
import { AuthenticationError, InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import { IdentityRepository, openGatewayDatabase, type GatewayDatabase } from '@platform/gateway-data-access';
import { createApiKey } from './create-api-key.usecase';
import { createWorkspace } from './create-workspace.usecase';
import { listApiKeys } from './list-api-keys.usecase';
import { listWorkspaces } from './list-workspaces.usecase';
import { revokeApiKey } from './revoke-api-key.usecase';
import { generateApiKey } from './api-key';
import { Authenticator } from './authenticate.usecase';
import { bootstrapIdentity, type BootstrapResult } from './bootstrap.usecase';

// The use cases against the real store on an in-memory PGlite database (the same schema and migrations as Postgres).
describe('gateway identity', () => {
  let db: GatewayDatabase;
  let store: IdentityRepository;
  let auth: Authenticator;
  let boot: BootstrapResult;

  beforeAll(async () => {
    db = await openGatewayDatabase({ dataDir: 'memory://' });
    await db.migrate();
    store = new IdentityRepository(db.prisma);
    auth = new Authenticator(store);
    boot = (await bootstrapIdentity(store))!;
  }, 60_000);
  afterAll(() => db.close());

  describe('bootstrap', () => {
    it('creates one organization, workspace and admin key, once', async () => {
      expect(boot.apiKey).toMatch(/^lsv2_sk_/);
      expect(boot.workspace.organizationId).toBe(boot.organization.id);
      expect(await bootstrapIdentity(store)).toBeNull();
      expect(await Promise.all([bootstrapIdentity(store), bootstrapIdentity(store)])).toEqual([null, null]);
      expect(await store.countOrganizations()).toBe(1);
      const [key] = await store.listApiKeys(boot.organization.id);
      expect(key).toMatchObject({ role: 'admin', workspaceId: null, keyPrefix: boot.apiKey.slice(0, 14) });
    });
  });

  describe('authenticate', () => {
    it('refuses a missing, malformed, unknown or revoked key with 401', async () => {
      await expect(auth.authenticate(undefined, undefined)).rejects.toBeInstanceOf(AuthenticationError);
      await expect(auth.authenticate('nope', undefined)).rejects.toThrow('Invalid API key');
      await expect(auth.authenticate(generateApiKey(), undefined)).rejects.toThrow('Invalid API key');
      const admin = await auth.authenticate(boot.apiKey, undefined);
      const { record, key } = await createApiKey(store, admin, { description: 'tmp', workspaceId: null, role: 'member' });
      await revokeApiKey(store, admin, record.id);
      await expect(auth.authenticate(key, undefined)).rejects.toBeInstanceOf(AuthenticationError);
    });

    it('picks the tenant: header, bound workspace, or the only workspace', async () => {
      const admin = await auth.authenticate(boot.apiKey, undefined);
      expect(admin.identity).toEqual({ tenantId: boot.workspace.id, organizationId: boot.organization.id, subject: admin.key.id });
      const second = await createWorkspace(store, admin, `second-${randomUUID()}`);
      expect((await auth.authenticate(boot.apiKey, undefined)).identity.tenantId).toBe('');
      expect((await auth.authenticate(boot.apiKey, second.id.toUpperCase())).identity.tenantId).toBe(second.id);

      const { key } = await createApiKey(store, admin, { description: 'bound', workspaceId: second.id, role: 'member' });
      expect((await auth.authenticate(key, undefined)).identity.tenantId).toBe(second.id);
      expect((await auth.authenticate(key, ` ${second.id} `)).identity.tenantId).toBe(second.id);
      await expect(auth.authenticate(key, boot.workspace.id)).rejects.toBeInstanceOf(NotAllowedError);
    });

    it('refuses unknown workspaces with 403 and malformed ids with 400', async () => {
      await expect(auth.authenticate(boot.apiKey, randomUUID())).rejects.toBeInstanceOf(NotAllowedError);
      await expect(auth.authenticate(boot.apiKey, 'workspace-1')).rejects.toBeInstanceOf(InputError);
    });

    it('records when a key was last used', async () => {
      const admin = await auth.authenticate(boot.apiKey, boot.workspace.id);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await store.findApiKey(admin.key.id))?.lastUsedAt).toBeInstanceOf(Date);
    });
  });

  describe('admin', () => {
    it('needs an admin key to create workspaces and keys', async () => {
      const admin = await auth.authenticate(boot.apiKey, boot.workspace.id);
      const { key } = await createApiKey(store, admin, { description: 'member', workspaceId: null, role: 'member' });
      const member = await auth.authenticate(key, boot.workspace.id);
      await expect(createWorkspace(store, member, 'nope')).rejects.toBeInstanceOf(NotAllowedError);
      await expect(createApiKey(store, member, { description: '', workspaceId: null, role: 'admin' })).rejects.toBeInstanceOf(NotAllowedError);
      await expect(listApiKeys(store, member)).rejects.toBeInstanceOf(NotAllowedError);
      expect((await listWorkspaces(store, member)).length).toBeGreaterThanOrEqual(1);
    });

    it('keeps a workspace-scoped admin inside its workspace', async () => {
      const admin = await auth.authenticate(boot.apiKey, boot.workspace.id);
      const other = await createWorkspace(store, admin, `other-${randomUUID()}`);
      const { key } = await createApiKey(store, admin, { description: 'ws admin', workspaceId: boot.workspace.id, role: 'admin' });
      const wsAdmin = await auth.authenticate(key, undefined);
      await expect(createWorkspace(store, wsAdmin, 'x')).rejects.toBeInstanceOf(NotAllowedError);
      await expect(createApiKey(store, wsAdmin, { description: '', workspaceId: null, role: 'member' })).rejects.toBeInstanceOf(NotAllowedError);
      await expect(createApiKey(store, wsAdmin, { description: '', workspaceId: other.id, role: 'member' })).rejects.toBeInstanceOf(NotAllowedError);
      expect((await listWorkspaces(store, wsAdmin)).map((w) => w.id)).toEqual([boot.workspace.id]);
      expect((await listApiKeys(store, wsAdmin)).every((k) => k.workspaceId === boot.workspace.id)).toBe(true);
      const orgWide = (await store.listApiKeys(boot.organization.id)).find((k) => k.workspaceId === null)!;
      await expect(revokeApiKey(store, wsAdmin, orgWide.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses a key for a workspace outside the organization, and duplicate workspace names', async () => {
      const admin = await auth.authenticate(boot.apiKey, boot.workspace.id);
      await expect(createApiKey(store, admin, { description: '', workspaceId: randomUUID(), role: 'member' })).rejects.toBeInstanceOf(InputError);
      await createWorkspace(store, admin, 'twice');
      await expect(createWorkspace(store, admin, 'twice')).rejects.toThrow('A workspace with this name already exists');
      await expect(revokeApiKey(store, admin, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
