import { randomUUID } from 'node:crypto';
import { connect, headers as natsHeaders } from 'nats';
import type { z } from 'zod';
import { resolveConsumeOptions } from '../lib/consume-options.schema';
import { encodePayload, type QueueDefinition } from '../lib/define-queue';
import { silentLogger, type JobBusLogger } from '../lib/job-bus.logger';
import type { ConsumeOptions, Consumer, JobBus, JobHandler, PublishOptions, PublishResult } from '../lib/job-bus.types';
import { JetStreamConsumer } from './jetstream.consumer';
import { deleteStream, ensureDurable, ensureStream } from './jetstream-topology';

/** Options of {@link createJetStreamBus}. */
export interface JetStreamBusOptions {
  /** NATS server URL(s), e.g. `nats://127.0.0.1:4222`. */
  servers: string | string[];
  /** Prepended to queue names to form stream names (default none). */
  streamPrefix?: string;
  logger?: JobBusLogger;
  /** Stream duplicate window for `msgId` dedupe (default 2 min). */
  duplicateWindowMs?: number;
  /** Copies of each stream in a JetStream cluster (default 1; 3 on a 3-node cluster). */
  streamReplicas?: number;
  /** How long one pull waits for messages; also bounds how long `stop()` waits for it (default 1 s, the client's minimum). */
  fetchExpiresMs?: number;
  /** Connection name shown by the server's monitoring. */
  connectionName?: string;
}

/** The JetStream bus, plus admin helpers that only make sense with a server. */
export interface JetStreamJobBus extends JobBus {
  readonly kind: 'jetstream';
  /** The stream that backs `queue`. */
  streamName(queue: QueueDefinition): string;
  /** Deletes the queue's stream with its messages and consumer (tests, tooling). */
  deleteQueue(queue: QueueDefinition): Promise<void>;
}

/**
 * Connects to NATS and returns a job bus backed by one work-queue stream per queue and a durable
 * pull consumer shared by every replica that consumes with the same durable name.
 */
export async function createJetStreamBus(options: JetStreamBusOptions): Promise<JetStreamJobBus> {
  const logger = options.logger ?? silentLogger;
  const prefix = options.streamPrefix ?? '';
  const duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
  const fetchExpiresMs = options.fetchExpiresMs ?? 1_000;

  const nc = await connect({ servers: options.servers, name: options.connectionName ?? 'job-bus' });
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  const encoder = new TextEncoder();
  const ensured = new Map<string, Promise<void>>();
  const consumers = new Set<Pick<Consumer, 'stop'>>();
  let closing: Promise<void> | undefined;

  void nc.closed().then((err) =>
    err ? logger.error({ err }, 'job-bus: NATS connection closed with an error') : logger.debug({}, 'job-bus: NATS connection closed'),
  );

  const streamName = (queue: QueueDefinition) => `${prefix}${queue.name}`;
  const ensureQueue = (queue: QueueDefinition): Promise<void> => {
    const stream = streamName(queue);
    let pending = ensured.get(stream);
    if (!pending) {
      // Once per process and stream; a failure is not cached so the next call retries.
      pending = ensureStream(jsm, stream, queue.subject, duplicateWindowMs, options.streamReplicas).catch((err) => {
        ensured.delete(stream);
        throw err;
      });
      ensured.set(stream, pending);
    }
    return pending;
  };

  return {
    kind: 'jetstream',
    streamName,
    ensureQueue,
    async publish<S extends z.ZodType>(queue: QueueDefinition<S>, payload: z.input<S>, opts: PublishOptions = {}): Promise<PublishResult> {
      const body = encodePayload(queue, payload);
      await ensureQueue(queue);
      const id = opts.msgId ?? randomUUID();
      const h = natsHeaders();
      for (const [key, value] of Object.entries(opts.headers ?? {})) h.set(key, value);
      // The id always travels as Nats-Msg-Id: the server dedupes on it and consumers read job.id from it.
      const ack = await js.publish(queue.subject, encoder.encode(body), { msgID: id, headers: h });
      return { id, duplicate: ack.duplicate };
    },
    async consume<S extends z.ZodType>(queue: QueueDefinition<S>, handler: JobHandler<z.output<S>>, opts: ConsumeOptions): Promise<Consumer> {
      if (closing) throw new Error('job-bus: the bus is closed');
      const resolved = resolveConsumeOptions(opts);
      const stream = streamName(queue);
      await ensureQueue(queue);
      await ensureDurable(jsm, stream, queue.name, resolved);
      const pull = await js.consumers.get(stream, resolved.durable);
      const consumer = new JetStreamConsumer({ nc, jsm, pull, stream, queue, handler, opts: resolved, logger, fetchExpiresMs });
      consumers.add(consumer);
      consumer.start();
      return {
        queue: consumer.queue,
        durable: consumer.durable,
        ready: () => consumer.ready(),
        stop: async () => {
          await consumer.stop();
          consumers.delete(consumer);
        },
      };
    },
    async ready() {
      if (closing || nc.isClosed()) return false;
      try {
        await nc.rtt();
        return true;
      } catch {
        return false;
      }
    },
    async deleteQueue(queue) {
      ensured.delete(streamName(queue));
      await deleteStream(jsm, streamName(queue));
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...consumers].map((c) => c.stop()));
        if (!nc.isClosed()) await nc.drain();
      })();
      return closing;
    },
  };
}
