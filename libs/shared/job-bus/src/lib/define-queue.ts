import type { z } from 'zod';
import { JobPayloadError } from './job-bus.errors';

/** A queue and the contract of its messages: the zod schema lives with the queue it guards. */
export interface QueueDefinition<S extends z.ZodType = z.ZodType> {
  /** Stream name on JetStream: letters, digits, `-` and `_`. */
  readonly name: string;
  /** Subject the jobs are published on (no wildcards). */
  readonly subject: string;
  readonly schema: S;
}

/** What a producer passes to `publish` for queue `Q`. */
export type JobInput<Q extends QueueDefinition> = z.input<Q['schema']>;
/** What a handler receives in `job.data` for queue `Q`. */
export type JobData<Q extends QueueDefinition> = z.output<Q['schema']>;

const NAME = /^[A-Za-z0-9_-]+$/;
const SUBJECT = /^[^\s*>.]+(\.[^\s*>.]+)*$/;

/**
 * Declares a queue. Names double as JetStream stream names, so they are checked here rather
 * than failing later on the server.
 */
export function defineQueue<S extends z.ZodType>(def: { name: string; subject: string; schema: S }): QueueDefinition<S> {
  if (!NAME.test(def.name)) throw new Error(`Queue name "${def.name}" may only hold letters, digits, "-" and "_"`);
  if (!SUBJECT.test(def.subject)) throw new Error(`Queue subject "${def.subject}" must be a literal subject without wildcards`);
  return Object.freeze({ name: def.name, subject: def.subject, schema: def.schema });
}

/**
 * Validates a producer's payload and returns the JSON to publish. The original input is sent (not
 * the parsed output) so schemas with transforms still parse on the consumer side.
 */
export function encodePayload<S extends z.ZodType>(queue: QueueDefinition<S>, payload: z.input<S>): string {
  const result = queue.schema.safeParse(payload);
  if (!result.success) throw new JobPayloadError(queue.name, result.error.issues);
  return JSON.stringify(payload);
}


/**
 * The queue of one installation on a shared NATS: stream `<prefix>-<name>`, subject `<prefix>.<subject>`, so two
 * installations never consume each other's jobs (nor collide on overlapping subjects). An empty prefix keeps the
 * queue as it is.
 */
export function installationQueue<S extends z.ZodType>(queue: QueueDefinition<S>, prefix: string): QueueDefinition<S> {
  if (!prefix) return queue;
  return defineQueue({ name: `${prefix}-${queue.name}`, subject: `${prefix}.${queue.subject}`, schema: queue.schema });
}

/** A durable consumer's name within an installation (`<prefix>-<durable>`). */
export const installationDurable = (durable: string, prefix: string) => (prefix ? `${prefix}-${durable}` : durable);
