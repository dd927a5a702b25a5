import { api } from './http';
import type { OAuthProvider } from './types';

/** What a provider is made of, as the API answers it, plus its write-only secret. */
export type ProviderInput = Pick<OAuthProvider, 'provider_id' | 'name' | 'client_id' | 'auth_url' | 'token_url' | 'uses_pkce'> & { client_secret?: string | null };

export const oauthApi = {
  providers: () => api<OAuthProvider[]>('GET', '/v2/auth/providers'),
  create: (body: ProviderInput) => api<OAuthProvider>('POST', '/v2/auth/providers', { body }),
  update: (providerId: string, body: Partial<Omit<ProviderInput, 'provider_id'>>) => api<OAuthProvider>('PATCH', `/v2/auth/providers/${encodeURIComponent(providerId)}`, { body }),
  remove: (providerId: string) => api<unknown>('DELETE', `/v2/auth/providers/${encodeURIComponent(providerId)}`),
};
