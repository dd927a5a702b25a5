import { randomUUID } from 'node:crypto';
import { connect, headers as natsHeaders } from 'nats';
import type { z } from 'zod';
import { resolveConsumeOptions } from '../lib/consume-options.schema';
import { encodePayload, type QueueDefinition } from '../lib/define-queue';
import { silentLogger, type JobBusLogger } from '../lib/job-bus.logger';
import type { ConsumeOptions, Consumer, JobBus, JobHandler, PublishOptions, PublishResult } from '../lib/job-bus.types';
import { isNoResponders, watchConnection } from './connection-state';
import { JetStreamConsumer } from './jetstream.consumer';
import { deleteStream, ensureDurable, ensureStream } from './jetstream-topology';

const PROBE_TIMEOUT_MS = 1_500;
const ENSURE_ATTEMPTS = 4;

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
  /** Wait between reconnect attempts, plus up to half as much jitter (default 1 s). There is no attempt limit. */
  reconnectWaitMs?: number;
  /** How often an idle consumer checks that its durable still exists (default 10 s). */
  verifyEveryMs?: number;
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

  const reconnectWaitMs = options.reconnectWaitMs ?? 1_000;
  const verifyEveryMs = options.verifyEveryMs ?? 10_000;

  // Reconnects forever (nats.js gives up after 10 tries by default, and a closed connection never comes back); pings
  // find a silently dead server in ~30 s. A first connect that fails still fails the start.
  const nc = await connect({
    servers: options.servers,
    name: options.connectionName ?? 'job-bus',
    maxReconnectAttempts: -1,
    reconnectTimeWait: reconnectWaitMs,
    reconnectJitter: Math.round(reconnectWaitMs / 2),
    reconnectJitterTLS: reconnectWaitMs,
    pingInterval: 10_000,
    maxPingOut: 3,
  });
  const jsm = await nc.jetstreamManager();
  // Checks (readiness, a consumer's durable) answer fast or count as failed, so a recovering cluster is retried soon.
  const probe = await nc.jetstreamManager({ timeout: PROBE_TIMEOUT_MS });
  const js = nc.jetstream();
  const encoder = new TextEncoder();
  const ensured = new Map<string, Promise<void>>();
  const consumers = new Set<Pick<JetStreamConsumer<z.ZodType>, 'stop' | 'reconnected'>>();
  const connection = watchConnection(nc, logger, () => consumers.forEach((c) => c.reconnected()));
  let closing: Promise<void> | undefined;

  void nc.closed().then((err) => {
    if (closing) return logger.debug({}, 'job-bus: NATS connection closed');
    // Not by close(): with unlimited reconnects this is a fatal error (e.g. authorization revoked). Liveness fails.
    connection.wedged = true;
    logger.error({ err }, 'job-bus: NATS connection closed for good; the bus is wedged (liveness fails so the process is restarted)');
  });

  const streamName = (queue: QueueDefinition) => `${prefix}${queue.name}`;
  const ensureQueue = (queue: QueueDefinition): Promise<void> => {
    const stream = streamName(queue);
    let pending = ensured.get(stream);
    if (!pending) {
      // Once per process and stream; a failure is not cached so the next call retries. A cluster still electing
      // leaders (just started, or a node just lost) times out: tried a few times before the caller hears of it.
      const attempt = async (tries: number): Promise<void> => {
        try {
          await ensureStream(jsm, stream, queue.subject, duplicateWindowMs, options.streamReplicas, logger);
        } catch (err) {
          const mapped = connection.unavailable(err);
          if (mapped === err || tries <= 1 || closing) throw mapped;
          logger.warn({ stream, err }, 'job-bus: creating the stream failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, reconnectWaitMs));
          return attempt(tries - 1);
        }
      };
      pending = attempt(ENSURE_ATTEMPTS).catch((err) => {
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
      connection.require();
      const id = opts.msgId ?? randomUUID();
      const h = natsHeaders();
      for (const [key, value] of Object.entries(opts.headers ?? {})) h.set(key, value);
      // The id always travels as Nats-Msg-Id: the server dedupes on it and consumers read job.id from it (and a
      // retry after a lost acknowledgement is dropped as a duplicate).
      const send = async () => {
        await ensureQueue(queue);
        return js.publish(queue.subject, encoder.encode(body), { msgID: id, headers: h });
      };
      try {
        const ack = await send().catch(async (err: unknown) => {
          // No stream listens on the subject (a cluster lost it): create it again, then publish once more.
          if (!isNoResponders(err)) throw err;
          ensured.delete(streamName(queue));
          return send();
        });
        return { id, duplicate: ack.duplicate };
      } catch (err) {
        throw connection.unavailable(err);
      }
    },
    async consume<S extends z.ZodType>(queue: QueueDefinition<S>, handler: JobHandler<z.output<S>>, opts: ConsumeOptions): Promise<Consumer> {
      if (closing) throw new Error('job-bus: the bus is closed');
      const resolved = resolveConsumeOptions(opts);
      const stream = streamName(queue);
      const bind = async () => {
        await ensureQueue(queue);
        await ensureDurable(jsm, stream, queue.name, resolved);
        return js.consumers.get(stream, resolved.durable);
      };
      const rebind = () => {
        ensured.delete(stream);
        return bind();
      };
      const pull = await bind();
      const consumer = new JetStreamConsumer({ nc, jsm: probe, pull, bind: rebind, stream, queue, handler, opts: resolved, logger, fetchExpiresMs, verifyEveryMs });
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
      if (closing || nc.isClosed() || !connection.connected) return false;
      try {
        // Connected is not enough: after a cluster restart JetStream answers only once a meta leader is elected.
        await probe.getAccountInfo();
        return true;
      } catch {
        return false;
      }
    },
    live: () => !connection.wedged,
    requireConnection: () => connection.require(),
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
