import { NotFoundError } from '@platform/errors';
import type { IdentityStore } from './identity.store';
import type { ServiceKeyOwner } from './service-keys.deps';

/** Revokes a key minted by `mintServiceKey` for the same workspace. */
export async function revokeServiceKey(store: IdentityStore, owner: ServiceKeyOwner, id: string, now = new Date()): Promise<void> {
  const key = await store.findApiKey(id);
  if (!key || key.organizationId !== owner.organizationId || key.workspaceId !== owner.workspaceId) throw new NotFoundError('API key not found');
  if (!key.revokedAt) await store.revokeApiKey(id, now);
}
