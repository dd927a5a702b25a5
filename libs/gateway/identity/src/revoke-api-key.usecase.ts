import { NotFoundError } from '@platform/errors';
import type { Caller } from './authenticate.usecase';
import type { IdentityStore } from './identity.store';
import { requireAdmin } from './admin.deps';

export async function revokeApiKey(store: IdentityStore, caller: Caller, id: string, now = new Date()): Promise<void> {
  requireAdmin(caller);
  const key = await store.findApiKey(id);
  const visible = key && key.organizationId === caller.key.organizationId && (!caller.key.workspaceId || key.workspaceId === caller.key.workspaceId);
  if (!visible) throw new NotFoundError('API key not found');
  if (!key.revokedAt) await store.revokeApiKey(id, now);
}
