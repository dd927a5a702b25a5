import { AuthenticationError, InputError, NotAllowedError } from '@platform/errors';
import type { Identity } from '@platform/identity';
import { isUuid } from '@platform/ids';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import type { ApiKeyRecord, IdentityStore, Workspace } from './identity.store';

export interface Caller {
  identity: Identity;
  key: ApiKeyRecord;
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
    const key = isWellFormedApiKey(apiKey) ? await this.store.findApiKeyByHash(hashApiKey(apiKey)) : null;
    if (!key || key.revokedAt) throw new AuthenticationError('Invalid API key');
    const tenantId = await this.tenantFor(key, tenantHeader?.trim() || undefined);
    this.touch(key);
    return { key, identity: { tenantId, organizationId: key.organizationId, subject: key.id } };
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
