import { isUuid } from '@platform/ids';
import { nowOf, type OAuthContext } from './oauth-context';

export type WaitResult =
  | { status: 'completed'; token: string; auth_id: string }
  | { status: 'failed'; auth_id: string; error: string | null; error_description: string | null }
  | { status: 'pending' | 'timeout' | 'not_found'; auth_id?: string };

/**
 * Long-polls a flow of the tenant until it completes or fails, or `timeoutMs` passes (`timeout`; `pending` when
 * asked not to wait). Reads the database each round, so it sees a callback served by any replica.
 */
export async function waitForAuth(ctx: OAuthContext, tenantId: string, authId: string, timeoutMs: number, pollMs = 250): Promise<WaitResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const flow = isUuid(authId) ? await ctx.store.findFlow(authId.toLowerCase()) : null;
    if (!flow || flow.tenantId !== tenantId) return { status: 'not_found' };
    if (flow.status === 'completed' && flow.tokenId) {
      const token = await ctx.store.findToken(tenantId, flow.tokenId);
      if (token) return { status: 'completed', token: ctx.box.open(token.accessToken), auth_id: flow.id };
    }
    if (flow.status === 'failed') return { status: 'failed', auth_id: flow.id, error: flow.error, error_description: flow.errorDescription };
    // A flow left mid-exchange by a crashed replica ends with the others, at its expiry.
    if ((flow.status === 'pending' || flow.status === 'exchanging') && flow.expiresAt <= nowOf(ctx)) {
      return { status: 'failed', auth_id: flow.id, error: 'expired', error_description: 'The authorization took too long' };
    }
    if (timeoutMs <= 0) return { status: 'pending', auth_id: flow.id };
    if (Date.now() >= deadline) return { status: 'timeout', auth_id: flow.id };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}

/** The access token behind a deployment's `integration_id` (the id of a completed flow), or null. */
export async function integrationToken(ctx: OAuthContext, tenantId: string, integrationId: string): Promise<string | null> {
  if (!isUuid(integrationId)) return null;
  const token = await ctx.store.findToken(tenantId, integrationId.toLowerCase());
  return token ? ctx.box.open(token.accessToken) : null;
}
