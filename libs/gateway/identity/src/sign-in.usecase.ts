import { hashApiKey } from './api-key';
import type { Authenticator } from './authenticate.usecase';
import { csrfTokenOf, generateSessionToken, hashSessionToken } from './browser-session';
import type { IdentityStore } from './identity.store';
import type { SignedIn } from './browser-sessions.deps';

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
