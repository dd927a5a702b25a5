import { NotFoundError } from '@platform/errors';
import type { OAuthContext } from './oauth-context';

export async function deleteProvider(ctx: OAuthContext, tenantId: string, providerId: string): Promise<void> {
  if (!(await ctx.store.deleteProvider(tenantId, providerId))) throw new NotFoundError(`OAuth provider ${providerId} not found`);
}
