import type { z } from 'zod';
import type { ResolvedConsumeOptions } from './consume-options.schema';
import type { QueueDefinition } from './define-queue';
import type { JobBusLogger } from './job-bus.logger';
import type { Job, JobHandler } from './job-bus.types';

/** A message as a bus implementation hands it over, before decoding and validation. */
export interface RawDelivery {
  id: string;
  attempt: number;
  publishedAt: Date;
  headers: Record<string, string>;
  /** Parses the body; may throw on malformed JSON. */
  decode(): unknown;
  ack(): void;
  nak(delayMs?: number): void;
  term(reason?: string): void;
  working(): void;
}

/**
 * The consume path shared by both buses: decode → validate → handler → settle. Invalid messages
 * are terminated (never retried); an unsettled return acks; a throw naks with the default delay;
 * a retry on the last allowed delivery becomes a logged term so no bus keeps a dead job around.
 */
export async function deliverJob<S extends z.ZodType>(
  queue: QueueDefinition<S>,
  raw: RawDelivery,
  handler: JobHandler<z.output<S>>,
  opts: ResolvedConsumeOptions,
  logger: JobBusLogger,
): Promise<void> {
  const fields = { queue: queue.name, durable: opts.durable, jobId: raw.id, attempt: raw.attempt };
  let data: unknown;
  try {
    data = raw.decode();
  } catch (err) {
    logger.warn({ ...fields, err }, 'job-bus: undecodable job payload, terminating');
    raw.term('undecodable payload');
    return;
  }
  const parsed = queue.schema.safeParse(data);
  if (!parsed.success) {
    logger.warn({ ...fields, issues: parsed.error.issues }, 'job-bus: invalid job payload, terminating');
    raw.term('invalid payload');
    return;
  }

  const lastAttempt = opts.maxDeliver !== undefined && raw.attempt >= opts.maxDeliver;
  let settled = false;
  const settle = (action: () => void) => {
    if (settled) return;
    settled = true;
    action();
  };
  const job: Job<z.output<S>> = {
    id: raw.id,
    queue: queue.name,
    data: parsed.data,
    attempt: raw.attempt,
    publishedAt: raw.publishedAt,
    headers: raw.headers,
    ack: () => settle(() => raw.ack()),
    nak: (delayMs) =>
      settle(() => {
        if (!lastAttempt) return raw.nak(delayMs);
        logger.error(fields, 'job-bus: max deliveries reached, dropping job');
        raw.term('max deliveries reached');
      }),
    term: (reason) =>
      settle(() => {
        logger.warn({ ...fields, reason }, 'job-bus: job terminated by handler');
        raw.term(reason);
      }),
    working: () => {
      if (!settled) raw.working();
    },
  };

  const started = Date.now();
  logger.info({ ...fields, queueLatencyMs: started - raw.publishedAt.getTime() }, 'job-bus: job received');
  try {
    await handler(job);
    job.ack();
    logger.debug({ ...fields, durationMs: Date.now() - started }, 'job-bus: job done');
  } catch (err) {
    if (settled) {
      logger.error({ ...fields, err }, 'job-bus: handler threw after settling the job');
      return;
    }
    logger.warn({ ...fields, err, durationMs: Date.now() - started, retryInMs: opts.defaultNakDelayMs }, 'job-bus: handler failed');
    job.nak(opts.defaultNakDelayMs);
  }
}
