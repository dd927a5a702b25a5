import type { JsMsg } from 'nats';
import type { RawDelivery } from '../lib/deliver-job';

const MSG_ID_HEADER = 'Nats-Msg-Id';

/** Adapts a JetStream message to the bus-neutral delivery the consume path works on. */
export function toRawDelivery(msg: JsMsg): RawDelivery {
  const natsHeaders = msg.headers;
  const headers: Record<string, string> = {};
  for (const key of natsHeaders?.keys() ?? []) {
    // Nats-* headers are transport details (the msg id surfaces as job.id).
    if (natsHeaders && !key.toLowerCase().startsWith('nats-')) headers[key] = natsHeaders.get(key);
  }
  return {
    id: natsHeaders?.get(MSG_ID_HEADER) || `${msg.info.stream}:${msg.seq}`,
    // The server's delivery count is already 1-based.
    attempt: msg.info.redeliveryCount,
    publishedAt: new Date(Math.floor(msg.info.timestampNanos / 1e6)),
    headers,
    decode: () => msg.json(),
    ack: () => msg.ack(),
    nak: (delayMs) => msg.nak(delayMs),
    // No reason on the wire: servers before 2.10 ignore "+TERM <reason>" and redeliver; the
    // reason is in the bus's log line instead.
    term: () => msg.term(),
    working: () => msg.working(),
  };
}
