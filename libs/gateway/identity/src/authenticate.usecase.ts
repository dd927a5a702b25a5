import { AuthenticationError, InputError, NotAllowedError } from '@platform/errors';
import type { Identity } from '@platform/identity';
import { isUuid } from '@platform/ids';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import { hashSessionToken, isLiveSession, type BrowserSession } from './browser-session';
import type { ApiKeyRecord, IdentityStore, Workspace } from './identity.store';

export interface Caller {
  identity: Identity;
  key: ApiKeyRecord;
  /** Set when the request came with a browser session (made with `key`) instead of the key itself. */
  session?: BrowserSession;
}

// Writing last_used_at on every request would make each call a write; once a minute per key is plenty.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Turns `X-Api-Key` + `X-Tenant-Id` into the caller's identity.
 * - no key or an unknown/revoked key → 401;
 * - a tenant the key may not use (another workspace, another organization, or unknown) → 403;
 * - no tenant header: a key bound to one workspace uses it; an organization-wide key uses the organization's only
 *   workspace, or gets no tenant (routes that need one answer 400).
 */
export class Authenticator {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly store: IdentityStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async authenticate(apiKey: string | undefined, tenantHeader: string | undefined): Promise<Caller> {
    if (!apiKey) throw new AuthenticationError('Missing API key: set the X-Api-Key header');
    if (!isWellFormedApiKey(apiKey)) throw new AuthenticationError('Invalid API key');
    return this.authenticateKeyHash(hashApiKey(apiKey), tenantHeader);
  }

  /** The caller a key hash stands for: the one check behind API keys and the browser sessions made with them. */
  async authenticateKeyHash(keyHash: string, tenantHeader: string | undefined): Promise<Caller> {
    const key = await this.store.findApiKeyByHash(keyHash);
    if (!key || key.revokedAt) throw new AuthenticationError('Invalid API key');
    const tenantId = await this.tenantFor(key, tenantHeader?.trim() || undefined);
    this.touch(key);
    return { key, identity: { tenantId, organizationId: key.organizationId, subject: key.id } };
  }

  /**
   * A browser session's caller: the session must be live and its key too (a revoked or rotated key ends it).
   * The tenant is the header's, else the workspace picked in the session, else the key's default.
   */
  async authenticateSession(token: string, tenantHeader: string | undefined): Promise<Caller> {
    const session = await this.store.findBrowserSession(hashSessionToken(token));
    if (!session || !isLiveSession(session, this.now())) throw new AuthenticationError('Session expired or signed out: sign in again');
    const caller = await this.authenticateKeyHash(session.keyHash, tenantHeader?.trim() || session.workspaceId || undefined).catch((err: unknown) => {
      throw err instanceof AuthenticationError ? new AuthenticationError('The API key of this session is no longer valid: sign in again') : err;
    });
    if (caller.key.id !== session.apiKeyId) throw new AuthenticationError('Session expired or signed out: sign in again');
    return { ...caller, session };
  }

  private async tenantFor(key: ApiKeyRecord, requested: string | undefined): Promise<string> {
    if (requested === undefined) {
      if (key.workspaceId) return key.workspaceId;
      const workspaces = await this.store.listWorkspaces(key.organizationId);
      return workspaces.length === 1 ? workspaces[0].id : '';
    }
    if (!isUuid(requested)) throw new InputError('X-Tenant-Id must be a workspace id (UUID)');
    const allowed = key.workspaceId
      ? key.workspaceId === requested.toLowerCase()
      : isInOrganization(await this.store.findWorkspace(requested.toLowerCase()), key.organizationId);
    if (!allowed) throw new NotAllowedError('This API key has no access to the requested workspace');
    return requested.toLowerCase();
  }

  private touch(key: ApiKeyRecord): void {
    const now = this.now();
    const last = this.touched.get(key.id) ?? key.lastUsedAt?.getTime() ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(key.id, now.getTime());
    // Best effort: a failed bookkeeping write must not fail the caller's request.
    this.store.touchApiKey(key.id, now).catch(() => this.touched.delete(key.id));
  }
}

function isInOrganization(workspace: Workspace | null, organizationId: string): boolean {
  return workspace !== null && workspace.organizationId === organizationId;
}
