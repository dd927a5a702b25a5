import type { JetStreamManager, NatsConnection, Subscription } from 'nats';
import type { JobBusLogger } from '../lib/job-bus.logger';

interface MaxDeliveriesAdvisory {
  stream_seq?: number;
  deliveries?: number;
}

/**
 * Logs the jobs the server gives up on by itself (ack wait ran out on the last delivery), which
 * the consume path never sees. The message stays in the stream, so its job id is looked up.
 */
export function watchMaxDeliveries(
  nc: NatsConnection,
  jsm: JetStreamManager,
  target: { stream: string; queue: string; durable: string },
  logger: JobBusLogger,
): Subscription {
  const { stream, queue, durable } = target;
  return nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${durable}`, {
    callback: (err, msg) => {
      if (err) return;
      void (async () => {
        const advisory = msg.json<MaxDeliveriesAdvisory>();
        const seq = advisory.stream_seq ?? 0;
        const jobId = await jsm.streams
          .getMessage(stream, { seq })
          .then((stored) => stored.header?.get('Nats-Msg-Id') || undefined)
          .catch(() => undefined);
        logger.error({ queue, durable, jobId, streamSeq: seq, attempt: advisory.deliveries }, 'job-bus: max deliveries reached, dropping job');
      })();
    },
  });
}
