import type { Caller } from './authenticate.usecase';
import type { ApiKeyRecord, IdentityStore } from './identity.store';
import { requireAdmin } from './admin.deps';

export async function listApiKeys(store: IdentityStore, caller: Caller): Promise<ApiKeyRecord[]> {
  requireAdmin(caller);
  const keys = await store.listApiKeys(caller.key.organizationId);
  return caller.key.workspaceId ? keys.filter((k) => k.workspaceId === caller.key.workspaceId) : keys;
}
