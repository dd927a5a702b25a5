import type { ApiKeyRecord, Workspace } from '@platform/gateway-identity';

// The admin API's JSON for a workspace and an API key (responses.schema.ts checks them against the documented shapes).

export function workspaceJson(w: Workspace) {
  return { id: w.id, organization_id: w.organizationId, display_name: w.name, created_at: w.createdAt.toISOString() };
}

export function apiKeyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    organization_id: k.organizationId,
    workspace_id: k.workspaceId,
    short_key: `${k.keyPrefix}…`,
    description: k.description,
    role: k.role,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}
