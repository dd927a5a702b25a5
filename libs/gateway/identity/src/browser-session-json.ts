import type { Caller } from './authenticate.usecase';
import type { Workspace } from './identity.store';

/** The JSON of `/api/v1/browser-session`: who the browser acts as, where, until when, and its CSRF token. */
export function browserSessionJson(caller: Caller, workspaces: Workspace[], csrfToken: string | null) {
  return {
    organization_id: caller.key.organizationId,
    /** The workspace requests go to; null until one is picked (the key spans several). */
    workspace_id: caller.identity.tenantId || null,
    workspaces: workspaces.map((w) => ({ id: w.id, display_name: w.name })),
    api_key: {
      id: caller.key.id,
      short_key: `${caller.key.keyPrefix}…`,
      description: caller.key.description,
      role: caller.key.role,
      workspace_id: caller.key.workspaceId,
    },
    expires_at: caller.session?.expiresAt.toISOString() ?? null,
    csrf_token: csrfToken,
  };
}

export type BrowserSessionJson = ReturnType<typeof browserSessionJson>;
