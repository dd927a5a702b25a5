import type { OAuthContext } from './oauth-context';
import type { OAuthProvider } from './oauth.types';

export function listProviders(ctx: OAuthContext, tenantId: string): Promise<OAuthProvider[]> {
  return ctx.store.listProviders(tenantId);
}
