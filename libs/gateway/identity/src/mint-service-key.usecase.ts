import { InputError } from '@platform/errors';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { ApiKeyRecord, IdentityStore } from './identity.store';
import type { ServiceKeyOwner } from './service-keys.deps';

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
