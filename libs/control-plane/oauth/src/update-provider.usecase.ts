import type { OAuthContext } from './oauth-context';
import type { OAuthProvider } from './oauth.types';
import type { ProviderInput } from './providers.deps';
import { getProvider } from './get-provider.usecase';

export async function updateProvider(ctx: OAuthContext, tenantId: string, providerId: string, changes: Partial<Omit<ProviderInput, 'providerId'>>): Promise<OAuthProvider> {
  const current = await getProvider(ctx, tenantId, providerId);
  const usesPkce = changes.usesPkce ?? current.usesPkce;
  return ctx.store.updateProvider(tenantId, providerId, {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.clientId !== undefined ? { clientId: changes.clientId } : {}),
    ...(changes.clientSecret !== undefined ? { clientSecret: changes.clientSecret ? ctx.box.seal(changes.clientSecret) : null } : {}),
    ...(changes.authUrl !== undefined ? { authUrl: changes.authUrl } : {}),
    ...(changes.tokenUrl !== undefined ? { tokenUrl: changes.tokenUrl } : {}),
    usesPkce,
    codeChallengeMethod: changes.codeChallengeMethod !== undefined ? changes.codeChallengeMethod : usesPkce ? (current.codeChallengeMethod ?? 'S256') : current.codeChallengeMethod,
  });
}
