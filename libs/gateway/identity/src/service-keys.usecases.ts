import { InputError, NotFoundError } from '@platform/errors';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { ApiKeyRecord, IdentityStore } from './identity.store';

/** The workspace a platform service acts for (from its internally signed request). */
export interface ServiceKeyOwner {
  organizationId: string;
  workspaceId: string;
}

/**
 * A member key bound to one workspace, minted for a platform service on a workspace's behalf (the control plane
 * gives one to each deployment so its Agent Server can send traces). Only internally signed requests reach this.
 */
export async function mintServiceKey(store: IdentityStore, owner: ServiceKeyOwner, description: string): Promise<{ record: ApiKeyRecord; key: string }> {
  const workspace = await store.findWorkspace(owner.workspaceId);
  if (!workspace || workspace.organizationId !== owner.organizationId) throw new InputError('workspace is not a workspace of this organization');
  const key = generateApiKey('sk');
  const record = await store.createApiKey({
    organizationId: owner.organizationId,
    workspaceId: owner.workspaceId,
    keyHash: hashApiKey(key),
    keyPrefix: displayPrefix(key),
    description,
    role: 'member',
  });
  return { record, key };
}

/** Revokes a key minted by `mintServiceKey` for the same workspace. */
export async function revokeServiceKey(store: IdentityStore, owner: ServiceKeyOwner, id: string, now = new Date()): Promise<void> {
  const key = await store.findApiKey(id);
  if (!key || key.organizationId !== owner.organizationId || key.workspaceId !== owner.workspaceId) throw new NotFoundError('API key not found');
  if (!key.revokedAt) await store.revokeApiKey(id, now);
}
