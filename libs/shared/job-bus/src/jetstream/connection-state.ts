import { DebugEvents, ErrorCode, Events, NatsError, type NatsConnection } from 'nats';
import { isPlatformError, ServiceUnavailableError } from '@platform/errors';
import type { JobBusLogger } from '../lib/job-bus.logger';

/** What a client should wait before retrying a request refused because NATS is unreachable. */
export const NATS_RETRY_AFTER_SECONDS = 5;

const DEPENDENCY = 'job queue (NATS)';
const UNREACHABLE = 'The job queue (NATS JetStream) is unreachable';

// Errors that mean "NATS or its JetStream is not answering now", not "this request is wrong".
const TRANSIENT = new Set<string>([
  ErrorCode.Timeout,
  ErrorCode.NoResponders,
  ErrorCode.Disconnect,
  ErrorCode.ConnectionClosed,
  ErrorCode.ConnectionDraining,
  ErrorCode.ConnectionRefused,
  ErrorCode.ConnectionTimeout,
  ErrorCode.JetStream408RequestTimeout,
]);

const unreachable = (message: string, cause?: unknown) =>
  new ServiceUnavailableError(DEPENDENCY, { message, retryAfterSeconds: NATS_RETRY_AFTER_SECONDS, cause });

/** The bus's view of its connection, kept from the client's status iterator. */
export interface ConnectionState {
  /** False between a disconnect and the next reconnect. */
  readonly connected: boolean;
  /** Set when the connection closed for good without the bus being closed: only a restart helps. */
  wedged: boolean;
  /** Throws `ServiceUnavailableError` (naming NATS) while disconnected or wedged. */
  require(): void;
  /** `err` as a `ServiceUnavailableError` when it means NATS is unreachable; any other error as it is. */
  unavailable(err: unknown): unknown;
}

/** True for the "503 no responders" a JetStream publish gets when no stream listens on its subject. */
export function isNoResponders(err: unknown): boolean {
  return err instanceof NatsError && err.code === ErrorCode.NoResponders && !err.api_error;
}

/**
 * Follows `nc.status()`: logs disconnects, reconnects and async errors, and calls `onReconnect` so consumers check
 * their durables (a whole-cluster restart may have lost them).
 */
export function watchConnection(nc: NatsConnection, logger: JobBusLogger, onReconnect: () => void): ConnectionState {
  let connected = true;
  let disconnectedAt = 0;
  let attempts = 0;
  const state: ConnectionState = {
    get connected() {
      return connected && !nc.isClosed();
    },
    wedged: false,
    require() {
      if (state.wedged) throw unreachable(`${UNREACHABLE}: its connection closed for good`);
      if (!state.connected) throw unreachable(`${UNREACHABLE}; reconnecting`);
    },
    unavailable(err) {
      if (isPlatformError(err) || !(err instanceof NatsError) || err.api_error || !TRANSIENT.has(err.code)) return err;
      return unreachable(`${UNREACHABLE} (${err.message})`, err);
    },
  };
  void (async () => {
    for await (const status of nc.status()) {
      switch (status.type) {
        case Events.Disconnect:
          connected = false;
          disconnectedAt = Date.now();
          attempts = 0;
          logger.warn({ server: status.data }, 'job-bus: NATS disconnected; reconnecting (no attempt limit)');
          break;
        case DebugEvents.Reconnecting:
          // One line per 10 attempts, so an outage of minutes still says it is trying without flooding the log.
          if (attempts++ % 10 === 0) logger.warn({ attempts, downMs: Date.now() - disconnectedAt }, 'job-bus: NATS still unreachable; reconnecting');
          break;
        case Events.Reconnect:
          connected = true;
          logger.info({ server: status.data, downMs: Date.now() - disconnectedAt, attempts }, 'job-bus: NATS reconnected');
          onReconnect();
          break;
        case Events.Error:
          logger.warn({ err: status.data }, 'job-bus: NATS reported an error');
          break;
        case Events.LDM:
          logger.info({ server: status.data }, 'job-bus: NATS server entering lame duck mode; moving to another');
          break;
        default:
          logger.debug({ type: status.type, data: status.data }, 'job-bus: NATS status');
      }
    }
  })();
  return state;
}
