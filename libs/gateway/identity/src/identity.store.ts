import type { ApiKeyRecord, NewApiKey, Organization, Workspace } from '@platform/gateway-data-access';
import type { WorkspaceLimitOverrides } from '@platform/rate-limit';
import type { BrowserSessionStore } from './browser-session';

// The records live with their repository in the data-access lib; the domain names them from here.
export type { ApiKeyRecord, ApiKeyRole, NewApiKey, Organization, Workspace } from '@platform/gateway-data-access';

/**
 * Persistence the identity use cases need: `IdentityRepository` of `@platform/gateway-data-access` on the database,
 * `CachingIdentityStore` in front of it.
 */
export interface IdentityStore extends BrowserSessionStore {
  countOrganizations(): Promise<number>;
  /**
   * In one transaction: an organization, its first workspace and a key in it. Returns null when any organization
   * already exists (so of two replicas starting together, one bootstraps and the other does nothing).
   */
  createFirstOrganization(
    organizationName: string,
    workspaceName: string,
    key: Omit<NewApiKey, 'organizationId' | 'workspaceId'>,
  ): Promise<{ organization: Organization; workspace: Workspace } | null>;
  createWorkspace(organizationId: string, name: string): Promise<Workspace>;
  findWorkspace(id: string): Promise<Workspace | null>;
  listWorkspaces(organizationId: string): Promise<Workspace[]>;
  /** Replaces the workspace's own limits (NotFoundError when it is gone). */
  setWorkspaceLimits(id: string, limits: WorkspaceLimitOverrides): Promise<Workspace>;
  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  findApiKey(id: string): Promise<ApiKeyRecord | null>;
  listApiKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string, at: Date): Promise<void>;
  touchApiKey(id: string, at: Date): Promise<void>;
}
