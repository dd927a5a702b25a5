import type { OAuthProvider } from '@platform/control-plane-data-access';

// The records live with their repository in the data-access lib.
export type { FlowStatus, NewProvider, OAuthFlow, OAuthProvider, OAuthToken, ProviderChanges } from '@platform/control-plane-data-access';

/** The JSON shape of a provider; the client secret is never returned. */
export function providerJson(p: OAuthProvider) {
  return {
    id: p.id,
    provider_id: p.providerId,
    name: p.name,
    client_id: p.clientId,
    auth_url: p.authUrl,
    token_url: p.tokenUrl,
    uses_pkce: p.usesPkce,
    code_challenge_method: p.codeChallengeMethod,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
