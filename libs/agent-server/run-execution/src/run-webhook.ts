import { createHmac } from 'node:crypto';
import { EgressPolicy, egressAgents, egressPost } from '@platform/egress';
import type { Logger } from '@platform/logging';

/** POSTs a finished run to its `webhook`; a failure is logged, never the run's problem. */
export type WebhookSender = (url: string, body: Record<string, unknown>) => Promise<void>;

export interface WebhookOptions {
  /** Where webhooks may go: public addresses plus the operator's allowlist, checked at connect time. */
  egress?: EgressPolicy;
  /** The deployment's `WEBHOOK_SECRET`: each POST is signed with it (`X-Webhook-Signature`); unset, unsigned. */
  secret?: string;
  timeoutMs?: number;
}

/** The signature header's name. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`: a receiver recomputes v1 over the
 * raw body it got, compares in constant time, and refuses a `t` too far from its clock (replays).
 */
export function webhookSignature(secret: string, body: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export function createWebhookSender(logger: Logger, options: WebhookOptions = {}): WebhookSender {
  const agents = egressAgents(options.egress ?? new EgressPolicy());
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (url, body) => {
    const text = JSON.stringify({ ...body, webhook_sent_at: new Date().toISOString() });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.secret) headers[WEBHOOK_SIGNATURE_HEADER] = webhookSignature(options.secret, text, Math.floor(Date.now() / 1000));
    try {
      const status = await egressPost(url, text, { agents, headers, timeoutMs });
      if (status < 200 || status >= 300) logger.warn({ url, status, run_id: body['run_id'] }, 'webhook answered with an error');
    } catch (err) {
      logger.warn({ err, url, run_id: body['run_id'] }, 'webhook call failed');
    }
  };
}
