import { NotAllowedError } from '@platform/errors';
import type { Caller } from './authenticate.usecase';
import type { IdentityStore, Workspace } from './identity.store';
import { requireAdmin } from './admin.deps';

export async function createWorkspace(store: IdentityStore, caller: Caller, name: string): Promise<Workspace> {
  requireAdmin(caller);
  if (caller.key.workspaceId) throw new NotAllowedError('A workspace-scoped key cannot create workspaces');
  return store.createWorkspace(caller.key.organizationId, name);
}
