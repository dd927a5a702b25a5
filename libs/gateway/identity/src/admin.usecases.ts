import { InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { Caller } from './authenticate.usecase';
import type { ApiKeyRecord, ApiKeyRole, IdentityStore, Workspace } from './identity.store';

function requireAdmin(caller: Caller): void {
  if (caller.key.role !== 'admin') throw new NotAllowedError('This operation needs an admin API key');
}

/** Workspaces of the caller's organization (a workspace-bound key sees only its own). */
export async function listWorkspaces(store: IdentityStore, caller: Caller): Promise<Workspace[]> {
  const all = await store.listWorkspaces(caller.key.organizationId);
  return caller.key.workspaceId ? all.filter((w) => w.id === caller.key.workspaceId) : all;
}

export async function createWorkspace(store: IdentityStore, caller: Caller, name: string): Promise<Workspace> {
  requireAdmin(caller);
  if (caller.key.workspaceId) throw new NotAllowedError('A workspace-scoped key cannot create workspaces');
  return store.createWorkspace(caller.key.organizationId, name);
}

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

export async function listApiKeys(store: IdentityStore, caller: Caller): Promise<ApiKeyRecord[]> {
  requireAdmin(caller);
  const keys = await store.listApiKeys(caller.key.organizationId);
  return caller.key.workspaceId ? keys.filter((k) => k.workspaceId === caller.key.workspaceId) : keys;
}

export async function revokeApiKey(store: IdentityStore, caller: Caller, id: string, now = new Date()): Promise<void> {
  requireAdmin(caller);
  const key = await store.findApiKey(id);
  const visible = key && key.organizationId === caller.key.organizationId && (!caller.key.workspaceId || key.workspaceId === caller.key.workspaceId);
  if (!visible) throw new NotFoundError('API key not found');
  if (!key.revokedAt) await store.revokeApiKey(id, now);
}
