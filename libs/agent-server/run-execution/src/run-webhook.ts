import type { Logger } from '@platform/logging';

/** POSTs a finished run to its `webhook`; a failure is logged, never the run's problem. */
export type WebhookSender = (url: string, body: Record<string, unknown>) => Promise<void>;

export function createWebhookSender(logger: Logger, timeoutMs = 10_000): WebhookSender {
  return async (url, body) => {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, webhook_sent_at: new Date().toISOString() }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) logger.warn({ url, status: res.status, run_id: body['run_id'] }, 'webhook answered with an error');
      await res.body?.cancel();
    } catch (err) {
      logger.warn({ err, url, run_id: body['run_id'] }, 'webhook call failed');
    }
  };
}
