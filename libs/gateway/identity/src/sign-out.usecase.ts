import type { Caller } from './authenticate.usecase';
import type { IdentityStore } from './identity.store';
import { sessionOf } from './browser-sessions.deps';

/** Sign-out: the session is revoked at once (its cookie is refused from then on, wherever it is replayed). */
export async function signOut(store: IdentityStore, caller: Caller, now = new Date()): Promise<void> {
  await store.revokeBrowserSession(sessionOf(caller).id, now);
}
