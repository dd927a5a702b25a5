import { ServiceUnavailableError } from '@platform/errors';

// SQLSTATEs of a server that ended or refuses the session: 57P01 admin shutdown (`pg_ctl stop/restart -m fast`),
// 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, in recovery), 53300 too many
// connections; class 08 is "connection exception".
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
// Prisma's codes for the same: can't reach (P1001), timed out reaching (P1002), socket timeout (P1008), server
// closed the connection (P1017), no pool connection in time (P2024), transaction could not start in time (P2028).
const PRISMA_GONE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
// The driver adapter's kinds for a lost or unreachable server.
const ADAPTER_GONE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SOCKET_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// What pg says, without a code, of a connection that broke or never came.
const PG_GONE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed and is not queryable/i;

function isSqlStateGone(code: unknown): boolean {
  return typeof code === 'string' && (SERVER_GONE.has(code) || /^08[0-9A-Z]{3}$/.test(code));
}

function isGone(err: unknown, depth: number): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const { code, kind, originalCode, message, cause, meta } = err as {
    code?: unknown;
    kind?: unknown;
    originalCode?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (typeof code === 'string' && (PRISMA_GONE.has(code) || SOCKET_GONE.has(code) || isSqlStateGone(code))) return true;
  if (typeof kind === 'string' && (ADAPTER_GONE.has(kind) || (kind === 'postgres' && (isSqlStateGone(code) || isSqlStateGone(originalCode))))) return true;
  if (err instanceof Error && typeof message === 'string' && PG_GONE.test(message)) return true;
  return isGone(cause, depth + 1) || isGone(meta?.driverAdapterError, depth + 1);
}

/**
 * Whether `err` says the database cannot be reached or dropped the connection (a restart, an outage, a full
 * server), as pg, the Prisma driver adapter or Prisma itself report it, as opposed to an error of the statement.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return !(err instanceof ServiceUnavailableError) && isGone(err, 0);
}

/**
 * The one place a lost database becomes the retryable `ServiceUnavailableError` ("database unavailable", a 503
 * or gRPC UNAVAILABLE at the edge); any other error is returned as it is.
 */
export function asDatabaseUnavailable(err: unknown): unknown {
  return isDatabaseUnavailable(err) ? new ServiceUnavailableError('database', { cause: err, retryAfterSeconds: 2 }) : err;
}

// Failures that happen before a statement reaches the server (nothing ran, so running it again is safe).
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '57P03', '53300']);
const NOT_CONNECTED = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

/** Whether `err` is a failure to get a connection at all: nothing was sent, so the operation may simply run again. */
export function isConnectFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, kind, originalCode, message, cause } = err as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && CONNECT_CODES.has(code)) return true;
  // The Prisma driver adapter's rendering of the same (its DriverAdapterError's cause).
  if (kind === 'DatabaseNotReachable' || kind === 'TooManyConnections' || (kind === 'postgres' && typeof originalCode === 'string' && CONNECT_CODES.has(originalCode))) return true;
  if (typeof message === 'string' && NOT_CONNECTED.test(message)) return true;
  return cause !== err && cause !== undefined && isConnectFailure(cause);
}

/** How long an operation is tried again while the database is briefly away (a restart takes well under this). */
export const RECONNECT_BUDGET_MS = 3_000;

/**
 * Runs `op`, and again with backoff while it fails for `retryable` reasons (by default: no connection could be
 * had) within {@link RECONNECT_BUDGET_MS}; then fails with `asDatabaseUnavailable` of the last error.
 */
export async function retryWhileUnavailable<T>(op: () => Promise<T>, retryable: (err: unknown) => boolean = isConnectFailure): Promise<T> {
  const deadline = Date.now() + RECONNECT_BUDGET_MS;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
    try {
      return await op();
    } catch (err) {
      if (!retryable(err) || Date.now() + delay > deadline) throw asDatabaseUnavailable(err);
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
    }
  }
}

/**
 * `asDatabaseUnavailable`, also for the `ServiceUnavailableError` that Prisma re-wrapped on its way out (a
 * PrismaClientKnownRequestError with the code `unavailable`).
 */
export function unwrapDatabaseUnavailable(err: unknown): unknown {
  if (err instanceof ServiceUnavailableError) return err;
  if (err instanceof Error && (err as { code?: unknown }).code === 'unavailable') return new ServiceUnavailableError('database', { cause: err, retryAfterSeconds: 2 });
  return asDatabaseUnavailable(err);
}
