import type { SecretBox } from '@platform/control-plane-secrets';
import type { OAuthRepository } from '@platform/control-plane-data-access';

export interface OAuthContext {
  store: OAuthRepository;
  box: SecretBox;
  /** Public base URL of the platform (the gateway); the callback is `{publicUrl}/v2/auth/callback/{provider_id}`. */
  publicUrl: string;
  /** Where the browser goes after the callback (`?auth_id=...&status=...`); unset = the callback answers JSON. */
  frontendCallbackUrl?: string;
  /** How long an authorization may take before its state is refused. */
  flowTtlMs: number;
  tokenTimeoutMs?: number;
  now?: () => Date;
}

export const nowOf = (ctx: OAuthContext) => (ctx.now ? ctx.now() : new Date());
