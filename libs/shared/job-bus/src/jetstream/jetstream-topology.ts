import { AckPolicy, DeliverPolicy, NatsError, RetentionPolicy, StorageType, nanos, type JetStreamManager, type StreamConfig } from 'nats';
import type { ResolvedConsumeOptions } from '../lib/consume-options.schema';
import { DurableConflictError } from '../lib/job-bus.errors';
import { silentLogger, type JobBusLogger } from '../lib/job-bus.logger';

// JetStream API error codes this module reacts to.
const STREAM_NAME_IN_USE = 10058;
const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;
const WORKQUEUE_MULTIPLE_UNFILTERED = 10099;
const WORKQUEUE_NOT_UNIQUE = 10100;

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}

/** True when `err` says the stream or the durable is gone (e.g. lost with a whole cluster's storage): bind again. */
export function isMissingTopology(err: unknown): boolean {
  const code = apiErrorCode(err);
  return code === STREAM_NOT_FOUND || code === CONSUMER_NOT_FOUND;
}

/**
 * Creates the queue's work-queue stream, or converges an existing one to its subject, duplicate window and at least
 * `replicas` copies. Replicas only go up: a stream an operator raised (or one another replica created with more) keeps
 * its copies, with a warning naming both counts. `replicas` > 1 needs a JetStream cluster (3 nodes, replicas 3, in
 * production); a single server refuses it.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  duplicateWindowMs: number,
  replicas = 1,
  logger: JobBusLogger = silentLogger,
): Promise<void> {
  const wanted = {
    name: stream,
    subjects: [subject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: nanos(duplicateWindowMs),
    num_replicas: replicas,
  };
  let current = await streamConfig(jsm, stream);
  if (!current) {
    try {
      await jsm.streams.add(wanted);
      return;
    } catch (err) {
      // Another replica created it meanwhile: converge to what it made.
      if (apiErrorCode(err) !== STREAM_NAME_IN_USE) throw err;
      current = await streamConfig(jsm, stream);
      if (!current) throw err;
    }
  }
  const has = current.num_replicas || 1;
  if (has > replicas) {
    logger.warn({ stream, replicas: has, configured: replicas }, 'job-bus: stream has more replicas than configured; keeping them (replicas are never lowered)');
  }
  const target = { ...current, subjects: [subject], duplicate_window: wanted.duplicate_window, num_replicas: Math.max(has, replicas) };
  const same = current.subjects.length === 1 && current.subjects[0] === subject && current.duplicate_window === target.duplicate_window && has === target.num_replicas;
  if (same) return;
  if (target.num_replicas > has) logger.info({ stream, from: has, to: target.num_replicas }, 'job-bus: raising the stream\'s replicas');
  await jsm.streams.update(stream, target);
}

async function streamConfig(jsm: JetStreamManager, stream: string): Promise<StreamConfig | undefined> {
  try {
    return (await jsm.streams.info(stream)).config;
  } catch (err) {
    if (apiErrorCode(err) === STREAM_NOT_FOUND) return undefined;
    throw err;
  }
}

/**
 * Creates or updates the durable pull consumer (the server treats an add of an existing durable
 * as an update). A second durable on a work-queue stream is refused by the server.
 */
export async function ensureDurable(jsm: JetStreamManager, stream: string, queue: string, opts: ResolvedConsumeOptions): Promise<void> {
  try {
    await jsm.consumers.add(stream, {
      durable_name: opts.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(opts.ackWaitMs),
      max_deliver: opts.maxDeliver ?? -1,
    });
  } catch (err) {
    const code = apiErrorCode(err);
    if (code === WORKQUEUE_MULTIPLE_UNFILTERED || code === WORKQUEUE_NOT_UNIQUE) {
      throw new DurableConflictError(queue, opts.durable, (err as NatsError).message);
    }
    throw err;
  }
}

/** Deletes a stream; a missing one is fine. */
export async function deleteStream(jsm: JetStreamManager, stream: string): Promise<void> {
  try {
    await jsm.streams.delete(stream);
  } catch (err) {
    if (apiErrorCode(err) !== STREAM_NOT_FOUND) throw err;
  }
}
