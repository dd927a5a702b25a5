import type { OAuthContext } from './oauth-context';
import type { OAuthProvider } from './oauth.types';
import type { ProviderInput } from './providers.deps';

export function createProvider(ctx: OAuthContext, tenantId: string, input: ProviderInput): Promise<OAuthProvider> {
  return ctx.store.createProvider({
    tenantId,
    providerId: input.providerId,
    name: input.name,
    clientId: input.clientId,
    clientSecret: input.clientSecret ? ctx.box.seal(input.clientSecret) : null,
    authUrl: input.authUrl,
    tokenUrl: input.tokenUrl,
    usesPkce: input.usesPkce ?? false,
    codeChallengeMethod: input.usesPkce ? (input.codeChallengeMethod ?? 'S256') : (input.codeChallengeMethod ?? null),
  });
}
