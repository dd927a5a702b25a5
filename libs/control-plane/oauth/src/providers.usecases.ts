import { NotFoundError } from '@platform/errors';
import type { OAuthContext } from './oauth-context';
import type { OAuthProvider } from './oauth.types';

export interface ProviderInput {
  providerId: string;
  name: string;
  clientId: string;
  clientSecret?: string | null;
  authUrl: string;
  tokenUrl: string;
  usesPkce?: boolean;
  codeChallengeMethod?: string | null;
}

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

export async function getProvider(ctx: OAuthContext, tenantId: string, providerId: string): Promise<OAuthProvider> {
  const provider = await ctx.store.findProvider(tenantId, providerId);
  if (!provider) throw new NotFoundError(`OAuth provider ${providerId} not found`);
  return provider;
}

export function listProviders(ctx: OAuthContext, tenantId: string): Promise<OAuthProvider[]> {
  return ctx.store.listProviders(tenantId);
}

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

export async function deleteProvider(ctx: OAuthContext, tenantId: string, providerId: string): Promise<void> {
  if (!(await ctx.store.deleteProvider(tenantId, providerId))) throw new NotFoundError(`OAuth provider ${providerId} not found`);
}
