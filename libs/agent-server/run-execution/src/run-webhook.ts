import type { Logger } from '@platform/logging';

/** POSTs a finished run to its `webhook`; a failure is logged, never the run's problem. */
export type WebhookSender = (url: string, body: Record<string, unknown>) => Promise<void>;

/** A webhook given as a path (`/custom/webhook`): a route of the deployment itself, as the reference takes it. */
export const isRelativeWebhook = (url: string): boolean => url.startsWith('/') && !url.startsWith('//');

export interface WebhookSenderOptions {
  timeoutMs?: number;
  /**
   * The deployment's own server (the loopback fetch an SDK Client without URL uses): a relative webhook is posted
   * through it, so the project's routes answer it under the deployment's auth, as on the reference.
   */
  loopback?: typeof fetch;
}

export function createWebhookSender(logger: Logger, options: WebhookSenderOptions = {}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (url, body) => {
    try {
      const relative = isRelativeWebhook(url);
      if (relative && !options.loopback) throw new Error('a relative webhook needs the deployment\'s own server');
      // The loopback fetch takes the path (and query) of any URL, as an SDK Client's requests come to it.
      const res = await (relative ? (options.loopback as typeof fetch) : fetch)(relative ? new URL(url, 'http://localhost').href : url, {
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
