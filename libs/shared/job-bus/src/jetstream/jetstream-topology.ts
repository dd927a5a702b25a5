import { AckPolicy, DeliverPolicy, NatsError, RetentionPolicy, StorageType, nanos, type JetStreamManager } from 'nats';
import type { ResolvedConsumeOptions } from '../lib/consume-options.schema';
import { DurableConflictError } from '../lib/job-bus.errors';

// JetStream API error codes this module reacts to.
const STREAM_NAME_IN_USE = 10058;
const STREAM_NOT_FOUND = 10059;
const WORKQUEUE_MULTIPLE_UNFILTERED = 10099;
const WORKQUEUE_NOT_UNIQUE = 10100;

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}

/**
 * Creates the queue's work-queue stream, or updates it when it exists with other settings. `replicas` > 1 needs a
 * JetStream cluster (3 nodes, replicas 3, in production); a single server refuses it.
 */
export async function ensureStream(jsm: JetStreamManager, stream: string, subject: string, duplicateWindowMs: number, replicas = 1): Promise<void> {
  const config = {
    name: stream,
    subjects: [subject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: nanos(duplicateWindowMs),
    num_replicas: replicas,
  };
  try {
    // Adding an identical stream is a no-op on the server, so every replica may call this.
    await jsm.streams.add(config);
  } catch (err) {
    if (apiErrorCode(err) !== STREAM_NAME_IN_USE) throw err;
    await jsm.streams.update(stream, config);
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
