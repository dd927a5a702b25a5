import { InputError, NotAllowedError } from '@platform/errors';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { Caller } from './authenticate.usecase';
import type { ApiKeyRecord, ApiKeyRole, IdentityStore } from './identity.store';
import { requireAdmin } from './admin.deps';

export interface CreateApiKeyInput {
  description: string;
  workspaceId: string | null;
  role: ApiKeyRole;
}

/** A new key in the caller's organization; the plain key is in the result and nowhere else. */
export async function createApiKey(
  store: IdentityStore,
  caller: Caller,
  input: CreateApiKeyInput,
): Promise<{ record: ApiKeyRecord; key: string }> {
  requireAdmin(caller);
  if (input.workspaceId) {
    const workspace = await store.findWorkspace(input.workspaceId);
    if (!workspace || workspace.organizationId !== caller.key.organizationId) {
      throw new InputError('workspace_id is not a workspace of this organization');
    }
    if (caller.key.workspaceId && caller.key.workspaceId !== input.workspaceId) {
      throw new NotAllowedError('A workspace-scoped key can only create keys for its own workspace');
    }
  } else if (caller.key.workspaceId) {
    throw new NotAllowedError('A workspace-scoped key cannot create organization-wide keys');
  }
  const key = generateApiKey('sk');
  const record = await store.createApiKey({
    organizationId: caller.key.organizationId,
    workspaceId: input.workspaceId,
    keyHash: hashApiKey(key),
    keyPrefix: displayPrefix(key),
    description: input.description,
    role: input.role,
  });
  return { record, key };
}
