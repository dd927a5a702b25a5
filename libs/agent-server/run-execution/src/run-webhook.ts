import { createHmac } from 'node:crypto';
import { EgressPolicy, egressAgents, egressPost } from '@platform/egress';
import type { Logger } from '@platform/logging';

/** POSTs a finished run to its `webhook`; a failure is logged, never the run's problem. */
export type WebhookSender = (url: string, body: Record<string, unknown>) => Promise<void>;

/** A webhook given as a path (`/custom/webhook`): a route of the deployment itself, as the reference takes it. */
export const isRelativeWebhook = (url: string): boolean => url.startsWith('/') && !url.startsWith('//');

export interface WebhookOptions {
  /** Where webhooks may go: public addresses plus the operator's allowlist, checked at connect time. */
  egress?: EgressPolicy;
  /** The deployment's `WEBHOOK_SECRET`: each POST is signed with it (`X-Webhook-Signature`); unset, unsigned. */
  secret?: string;
  timeoutMs?: number;
  /**
   * The deployment's own server (the loopback fetch an SDK Client without URL uses): a relative webhook is posted
   * through it, so the project's routes answer it under the deployment's auth, as on the reference.
   */
  loopback?: typeof fetch;
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
  // A path goes to the deployment itself (no egress: it never leaves the server), anything else through the egress check.
  const post = async (url: string, text: string, headers: Record<string, string>): Promise<number> => {
    if (!isRelativeWebhook(url)) return egressPost(url, text, { agents, headers, timeoutMs });
    if (!options.loopback) throw new Error("a relative webhook needs the deployment's own server");
    // The loopback fetch takes the path (and query) of any URL, as an SDK Client's requests come to it.
    const res = await options.loopback(new URL(url, 'http://localhost').href, { method: 'POST', headers, body: text, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status;
  };
  return async (url, body) => {
    const text = JSON.stringify({ ...body, webhook_sent_at: new Date().toISOString() });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.secret) headers[WEBHOOK_SIGNATURE_HEADER] = webhookSignature(options.secret, text, Math.floor(Date.now() / 1000));
    try {
      const status = await post(url, text, headers);
      if (status < 200 || status >= 300) logger.warn({ url, status, run_id: body['run_id'] }, 'webhook answered with an error');
    } catch (err) {
      logger.warn({ err, url, run_id: body['run_id'] }, 'webhook call failed');
    }
  };
}
