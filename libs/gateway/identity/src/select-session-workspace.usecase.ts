import type { Authenticator, Caller } from './authenticate.usecase';
import type { IdentityStore } from './identity.store';
import { sessionOf } from './browser-sessions.deps';

/** The workspace picker: the key must be allowed in the workspace (403 otherwise, as for `X-Tenant-Id`). */
export async function selectSessionWorkspace(authenticator: Authenticator, store: IdentityStore, caller: Caller, workspaceId: string): Promise<Caller> {
  const session = sessionOf(caller);
  const inWorkspace = await authenticator.authenticateKeyHash(session.keyHash, workspaceId);
  await store.setBrowserSessionWorkspace(session.id, inWorkspace.identity.tenantId);
  return { ...inWorkspace, session: { ...session, workspaceId: inWorkspace.identity.tenantId } };
}
