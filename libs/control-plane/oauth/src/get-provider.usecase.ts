import { NotFoundError } from '@platform/errors';
import type { OAuthContext } from './oauth-context';
import type { OAuthProvider } from './oauth.types';

export async function getProvider(ctx: OAuthContext, tenantId: string, providerId: string): Promise<OAuthProvider> {
  const provider = await ctx.store.findProvider(tenantId, providerId);
  if (!provider) throw new NotFoundError(`OAuth provider ${providerId} not found`);
  return provider;
}
