import { InputError } from '@platform/errors';
import { hashApiKey } from './api-key';
import type { Authenticator, Caller } from './authenticate.usecase';
import { csrfTokenOf, generateSessionToken, hashSessionToken, type BrowserSession } from './browser-session';
import type { IdentityStore } from './identity.store';

export interface SignedIn {
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
  session: BrowserSession;
  caller: Caller;
}

/**
 * Sign-in: an API key (checked as on any request, with the workspace asked for) becomes a browser session bound
 * to that key, in the workspace asked for or the key's default one (none yet when the key spans several).
 */
export async function signIn(
  authenticator: Authenticator,
  store: IdentityStore,
  input: { apiKey: string; workspaceId?: string; ttlMs: number; now?: Date },
): Promise<SignedIn> {
  const now = input.now ?? new Date();
  const caller = await authenticator.authenticate(input.apiKey.trim(), input.workspaceId);
  const token = generateSessionToken();
  const session = await store.createBrowserSession(
    {
      tokenHash: hashSessionToken(token),
      apiKeyId: caller.key.id,
      keyHash: hashApiKey(input.apiKey.trim()),
      workspaceId: caller.identity.tenantId || null,
      expiresAt: new Date(now.getTime() + input.ttlMs),
    },
    now,
  );
  return { token, csrfToken: csrfTokenOf(token), session, caller: { ...caller, session } };
}

function sessionOf(caller: Caller): BrowserSession {
  if (!caller.session) throw new InputError('This request was not made with a browser session');
  return caller.session;
}

/** The workspace picker: the key must be allowed in the workspace (403 otherwise, as for `X-Tenant-Id`). */
export async function selectSessionWorkspace(authenticator: Authenticator, store: IdentityStore, caller: Caller, workspaceId: string): Promise<Caller> {
  const session = sessionOf(caller);
  const inWorkspace = await authenticator.authenticateKeyHash(session.keyHash, workspaceId);
  await store.setBrowserSessionWorkspace(session.id, inWorkspace.identity.tenantId);
  return { ...inWorkspace, session: { ...session, workspaceId: inWorkspace.identity.tenantId } };
}

/** Sign-out: the session is revoked at once (its cookie is refused from then on, wherever it is replayed). */
export async function signOut(store: IdentityStore, caller: Caller, now = new Date()): Promise<void> {
  await store.revokeBrowserSession(sessionOf(caller).id, now);
}
