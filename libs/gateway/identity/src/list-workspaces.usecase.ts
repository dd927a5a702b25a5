import type { Caller } from './authenticate.usecase';
import type { IdentityStore, Workspace } from './identity.store';

/** Workspaces of the caller's organization (a workspace-bound key sees only its own). */
export async function listWorkspaces(store: IdentityStore, caller: Caller): Promise<Workspace[]> {
  const all = await store.listWorkspaces(caller.key.organizationId);
  return caller.key.workspaceId ? all.filter((w) => w.id === caller.key.workspaceId) : all;
}
