import { randomUUID } from 'node:crypto';
import { nowOf, type OAuthContext } from './oauth-context';
import { newState, pkcePair } from './oauth-state';
import { getProvider } from './get-provider.usecase';

export interface AuthenticateInput {
  userId: string;
  providerId: string;
  scopes: string[];
}

export type AuthenticateResult =
  | { status: 'completed'; auth_id: string; token: string }
  | { status: 'pending'; auth_id: string; url: string };

/**
 * Starts (or short-cuts) an authorization: a user who already holds a live token with the scopes gets it back;
 * otherwise a flow is recorded and the provider's authorize URL returned, its `state` carrying the flow id.
 */
export async function authenticate(ctx: OAuthContext, tenantId: string, input: AuthenticateInput): Promise<AuthenticateResult> {
  const provider = await getProvider(ctx, tenantId, input.providerId);
  const now = nowOf(ctx);
  const existing = await ctx.store.latestToken(tenantId, provider.providerId, input.userId);
  if (existing && input.scopes.every((s) => existing.scopes.includes(s)) && (!existing.expiresAt || existing.expiresAt > now)) {
    return { status: 'completed', auth_id: existing.id, token: ctx.box.open(existing.accessToken) };
  }

  const authId = randomUUID();
  const { state, hash } = newState(authId);
  const redirectUri = `${ctx.publicUrl.replace(/\/+$/, '')}/v2/auth/callback/${encodeURIComponent(provider.providerId)}`;
  const pkce = provider.usesPkce ? pkcePair(provider.codeChallengeMethod ?? 'S256') : undefined;
  await ctx.store.createFlow({
    id: authId,
    tenantId,
    providerId: provider.providerId,
    userId: input.userId,
    scopes: input.scopes,
    stateHash: hash,
    codeVerifier: pkce ? ctx.box.seal(pkce.verifier) : null,
    redirectUri,
    expiresAt: new Date(now.getTime() + ctx.flowTtlMs),
  });
  const url = new URL(provider.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  if (input.scopes.length) url.searchParams.set('scope', input.scopes.join(' '));
  url.searchParams.set('state', state);
  if (pkce) {
    url.searchParams.set('code_challenge', pkce.challenge);
    url.searchParams.set('code_challenge_method', provider.codeChallengeMethod ?? 'S256');
  }
  return { status: 'pending', auth_id: authId, url: url.toString() };
}
