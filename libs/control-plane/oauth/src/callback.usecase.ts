import { InputError } from '@platform/errors';
import { nowOf, type OAuthContext } from './oauth-context';
import { nonceMatches, parseState } from './oauth-state';
import { exchangeCode } from './token-exchange';

export interface CallbackInput {
  providerId: string;
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
}

export type CallbackOutcome =
  | { status: 'completed'; authId: string; providerId: string }
  | { status: 'failed'; authId: string; providerId: string; error: string; errorDescription?: string };

/** Where the browser goes next (the frontend page), or the JSON to show when no page is configured. */
export type CallbackResponse = { redirect: string } | { json: Record<string, unknown> };

const BAD_STATE = 'Invalid, expired or already used OAuth state';

/**
 * The provider's redirect back. The `state` is the only credential: it must name a pending flow of this provider
 * with the right nonce; it works once (a replay is refused). A provider error ends the flow as failed; a code is
 * exchanged at the token URL and the token stored encrypted, its id being the flow's id.
 */
export async function handleCallback(ctx: OAuthContext, input: CallbackInput): Promise<CallbackOutcome> {
  const parsed = parseState(input.state);
  if (!parsed) throw new InputError('Missing or malformed OAuth state');
  const flow = await ctx.store.findFlow(parsed.authId);
  const now = nowOf(ctx);
  if (!flow || flow.providerId !== input.providerId || !nonceMatches(parsed.nonce, flow.stateHash) || flow.status !== 'pending') {
    throw new InputError(BAD_STATE);
  }
  if (flow.expiresAt <= now) {
    await ctx.store.moveFlow(flow.id, 'pending', 'failed', { error: 'expired', errorDescription: 'The authorization took too long', completedAt: now });
    throw new InputError(BAD_STATE);
  }
  // Claim the flow: of two callbacks with the same state, one proceeds.
  if (!(await ctx.store.moveFlow(flow.id, 'pending', 'exchanging'))) throw new InputError(BAD_STATE);

  const fail = async (error: string, errorDescription?: string): Promise<CallbackOutcome> => {
    await ctx.store.moveFlow(flow.id, 'exchanging', 'failed', { error, errorDescription: errorDescription ?? null, completedAt: nowOf(ctx) });
    return { status: 'failed', authId: flow.id, providerId: flow.providerId, error, errorDescription };
  };
  if (input.error) return fail(input.error, input.errorDescription);
  if (!input.code) return fail('invalid_request', 'The provider sent neither a code nor an error');

  const provider = await ctx.store.findProvider(flow.tenantId, flow.providerId);
  if (!provider) return fail('provider_removed', 'The OAuth provider was deleted during the authorization');
  const token = await exchangeCode({
    tokenUrl: provider.tokenUrl,
    code: input.code,
    redirectUri: flow.redirectUri,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret ? ctx.box.open(provider.clientSecret) : undefined,
    codeVerifier: flow.codeVerifier ? ctx.box.open(flow.codeVerifier) : undefined,
    timeoutMs: ctx.tokenTimeoutMs ?? 15_000,
  });
  if (!token.ok) return fail(token.error, token.errorDescription);

  const done = nowOf(ctx);
  await ctx.store.saveToken({
    id: flow.id,
    tenantId: flow.tenantId,
    providerId: flow.providerId,
    userId: flow.userId,
    scopes: token.scope ? token.scope.split(/[ ,]+/).filter(Boolean) : flow.scopes,
    accessToken: ctx.box.seal(token.accessToken),
    refreshToken: token.refreshToken ? ctx.box.seal(token.refreshToken) : null,
    tokenType: token.tokenType ?? null,
    expiresAt: token.expiresIn ? new Date(done.getTime() + token.expiresIn * 1000) : null,
  });
  await ctx.store.moveFlow(flow.id, 'exchanging', 'completed', { tokenId: flow.id, completedAt: done });
  return { status: 'completed', authId: flow.id, providerId: flow.providerId };
}

/** The frontend redirect (with the outcome in the query) or, without a frontend page, the outcome as JSON. */
export function callbackResponse(ctx: OAuthContext, outcome: CallbackOutcome): CallbackResponse {
  const fields: Record<string, string> = { auth_id: outcome.authId, provider_id: outcome.providerId, status: outcome.status };
  if (outcome.status === 'failed') {
    fields.error = outcome.error;
    if (outcome.errorDescription) fields.error_description = outcome.errorDescription;
  }
  if (!ctx.frontendCallbackUrl) return { json: fields };
  const url = new URL(ctx.frontendCallbackUrl);
  for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
  return { redirect: url.toString() };
}
