import type { WorkspaceLimitOverrides } from '@platform/rate-limit';
/** Organization, workspace, API key and browser session as the gateway's domain sees them (the identity repository's records). */
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
  /** The workspace's own rate limits and quota (the defaults hold where a field is absent). */
  limits: WorkspaceLimitOverrides;
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

/** A browser session as the gateway's domain sees it (the token itself is never stored). */
export interface BrowserSession {
  id: string;
  apiKeyId: string;
  /** sha256 of the API key the session was made with: the session lives only while that key does. */
  keyHash: string;
  /** The workspace picked in the browser; null until one is picked. */
  workspaceId: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface NewBrowserSession {
  tokenHash: string;
  apiKeyId: string;
  keyHash: string;
  workspaceId: string | null;
  expiresAt: Date;
}

/**
 * What makes cached identity stale: a key revoked (rotation revokes the old key), an organization's set of
 * workspaces grown, a browser session signed out or moved to another workspace. The repository announces each one
 * in the transaction that makes it (Postgres `NOTIFY`), so every gateway replica hears it once it is committed.
 */
export type IdentityChange =
  | { kind: 'api-key'; id: string }
  | { kind: 'workspaces'; organizationId: string }
  | { kind: 'session'; id: string };

/** Postgres `NOTIFY` channel of identity changes. */
export const IDENTITY_CHANGES_CHANNEL = 'gateway_identity_changes';
