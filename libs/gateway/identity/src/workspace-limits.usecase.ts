import { NotAllowedError, NotFoundError } from '@platform/errors';
import { LIMIT_FIELDS, type LimitField, type WorkspaceLimitOverrides } from '@platform/rate-limit';
import { requireAdmin } from './admin.deps';
import type { Caller } from './authenticate.usecase';
import type { IdentityStore, Workspace } from './identity.store';

/** A workspace the caller may see: of its organization, and its own one when the key is bound to a workspace. */
async function visibleWorkspace(store: IdentityStore, caller: Caller, id: string): Promise<Workspace> {
  const workspace = await store.findWorkspace(id.toLowerCase());
  const visible = workspace && workspace.organizationId === caller.key.organizationId && (!caller.key.workspaceId || caller.key.workspaceId === workspace.id);
  if (!visible) throw new NotFoundError(`Workspace ${id} not found`);
  return workspace;
}

/** The workspace, with its own limits (the caller renders them with the defaults). */
export function getWorkspace(store: IdentityStore, caller: Caller, id: string): Promise<Workspace> {
  return visibleWorkspace(store, caller, id);
}

/**
 * Changes a workspace's own limits: a number sets a field, `null` returns it to the default, an absent field stays.
 * Organization admins only (an organization-wide admin key): a workspace may not raise its own limits.
 */
export async function updateWorkspaceLimits(
  store: IdentityStore,
  caller: Caller,
  id: string,
  patch: Partial<Record<LimitField, number | null>>,
): Promise<Workspace> {
  requireAdmin(caller);
  if (caller.key.workspaceId) throw new NotAllowedError("A workspace-scoped key cannot change a workspace's limits");
  const workspace = await visibleWorkspace(store, caller, id);
  const limits: WorkspaceLimitOverrides = { ...workspace.limits };
  for (const field of LIMIT_FIELDS) {
    const value = patch[field];
    if (value === null) delete limits[field];
    else if (value !== undefined) limits[field] = value;
  }
  return store.setWorkspaceLimits(workspace.id, limits);
}
