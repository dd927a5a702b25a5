import type { WorkspaceLimitOverrides } from '@platform/rate-limit';
import type { BrowserSession, NewBrowserSession } from './browser-session';
import type { IdentityChange, IdentityChangeFeed } from './identity-changes';
import type { ApiKeyRecord, IdentityStore, NewApiKey, Organization, Workspace } from './identity.store';

export interface IdentityCacheOptions {
  /** How long a key or a workspace list is reused without asking the database (the backstop of the feed). */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry<T> {
  value: T;
  expires: number;
}

/** A map whose entries expire, bounded (the oldest entry goes first). */
class Expiring<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(test: (value: T) => boolean): void {
    for (const [key, entry] of this.entries) if (test(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The identity store with what every request reads — its API key by hash, the workspace it names, the
 * organization's workspaces, the console's browser session — held in memory for `ttlMs`, so a request with a known key costs no database query.
 * A revoked key (or a signed-out session) is dropped at once: here when this process revokes it, on every other replica when the feed brings
 * the change (Postgres NOTIFY, sent in the revoking transaction). While the feed is down nothing is cached, and when
 * it comes back everything cached goes, since changes sent meanwhile are lost. A lookup that was under way when a
 * change arrived does not fill the cache: it may have read the row before the change.
 */
export class CachingIdentityStore implements IdentityStore {
  private readonly keys: Expiring<ApiKeyRecord>;
  private readonly workspaces: Expiring<Workspace>;
  private readonly workspaceLists: Expiring<Workspace[]>;
  private readonly sessions: Expiring<BrowserSession>;
  /** Bumped on every change: a lookup started under an older generation is not cached. */
  private generation = 0;

  constructor(
    private readonly inner: IdentityStore,
    private readonly feed: IdentityChangeFeed,
    options: IdentityCacheOptions = {},
  ) {
    const { ttlMs = 10_000, maxEntries = 10_000, now = Date.now } = options;
    this.keys = new Expiring(ttlMs, maxEntries, now);
    this.workspaces = new Expiring(ttlMs, maxEntries, now);
    this.workspaceLists = new Expiring(ttlMs, maxEntries, now);
    this.sessions = new Expiring(ttlMs, maxEntries, now);
    feed.subscribe((change) => this.apply(change));
  }

  /** Drops what a change makes stale (`reset`: everything). */
  apply(change: IdentityChange | 'reset'): void {
    this.generation++;
    if (change === 'reset') {
      this.keys.clear();
      this.workspaces.clear();
      this.workspaceLists.clear();
      this.sessions.clear();
    } else if (change.kind === 'api-key') {
      this.keys.deleteWhere((key) => key.id === change.id);
    } else if (change.kind === 'session') {
      this.sessions.deleteWhere((session) => session.id === change.id);
    } else {
      // A new workspace, or one whose limits changed.
      this.workspaceLists.delete(change.organizationId);
      this.workspaces.deleteWhere((workspace) => workspace.organizationId === change.organizationId);
    }
  }

  private async cached<T>(cache: Expiring<T>, key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (value !== null && this.feed.live && generation === this.generation) cache.set(key, value);
    return value;
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.cached(this.keys, keyHash, () => this.inner.findApiKeyByHash(keyHash));
  }

  findWorkspace(id: string): Promise<Workspace | null> {
    return this.cached(this.workspaces, id, () => this.inner.findWorkspace(id));
  }

  listWorkspaces(organizationId: string): Promise<Workspace[]> {
    return this.cached(this.workspaceLists, organizationId, () => this.inner.listWorkspaces(organizationId)) as Promise<Workspace[]>;
  }

  async revokeApiKey(id: string, at: Date): Promise<void> {
    await this.inner.revokeApiKey(id, at);
    this.apply({ kind: 'api-key', id });
  }

  async createWorkspace(organizationId: string, name: string): Promise<Workspace> {
    const workspace = await this.inner.createWorkspace(organizationId, name);
    this.apply({ kind: 'workspaces', organizationId });
    return workspace;
  }

  async setWorkspaceLimits(id: string, limits: WorkspaceLimitOverrides): Promise<Workspace> {
    const workspace = await this.inner.setWorkspaceLimits(id, limits);
    this.apply({ kind: 'workspaces', organizationId: workspace.organizationId });
    return workspace;
  }

  // The rest is read or written where it is needed, not on every request.
  countOrganizations(): Promise<number> {
    return this.inner.countOrganizations();
  }

  createFirstOrganization(
    organizationName: string,
    workspaceName: string,
    key: Omit<NewApiKey, 'organizationId' | 'workspaceId'>,
  ): Promise<{ organization: Organization; workspace: Workspace } | null> {
    return this.inner.createFirstOrganization(organizationName, workspaceName, key);
  }

  createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.inner.createApiKey(key);
  }

  findApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.inner.findApiKey(id);
  }

  listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return this.inner.listApiKeys(organizationId);
  }

  touchApiKey(id: string, at: Date): Promise<void> {
    return this.inner.touchApiKey(id, at);
  }

  createBrowserSession(session: NewBrowserSession, now: Date): Promise<BrowserSession> {
    return this.inner.createBrowserSession(session, now);
  }

  /** The console's requests: its session by token hash (its expiry is still checked on each request). */
  findBrowserSession(tokenHash: string): Promise<BrowserSession | null> {
    return this.cached(this.sessions, tokenHash, () => this.inner.findBrowserSession(tokenHash));
  }

  async setBrowserSessionWorkspace(id: string, workspaceId: string): Promise<void> {
    await this.inner.setBrowserSessionWorkspace(id, workspaceId);
    this.apply({ kind: 'session', id });
  }

  async revokeBrowserSession(id: string, at: Date): Promise<void> {
    await this.inner.revokeBrowserSession(id, at);
    this.apply({ kind: 'session', id });
  }
}
