import type { BrowserSessionStore } from './browser-session';

/** Organization, workspace and API key as the gateway's domain sees them. */
export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export interface Workspace {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

export type ApiKeyRole = 'admin' | 'member';

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  /** The one workspace the key may use; `null` for a key valid in every workspace of its organization. */
  workspaceId: string | null;
  keyPrefix: string;
  description: string;
  role: ApiKeyRole;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiKey {
  organizationId: string;
  workspaceId: string | null;
  keyHash: string;
  keyPrefix: string;
  description: string;
  role: ApiKeyRole;
}

/** Persistence the identity use cases need; the Prisma repository implements it. */
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
  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  findApiKey(id: string): Promise<ApiKeyRecord | null>;
  listApiKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string, at: Date): Promise<void>;
  touchApiKey(id: string, at: Date): Promise<void>;
}
