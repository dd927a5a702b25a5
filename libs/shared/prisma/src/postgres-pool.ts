import pg from 'pg';

/** How long a request waits for a pool connection (a new one included) before failing as "database unavailable". */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresPoolOptions {
  /** Connections in the pool (default 10, pg's default). */
  poolSize?: number;
  /** Bound on waiting for a connection (default {@link DEFAULT_CONNECT_TIMEOUT_MS}); pg's own default waits forever. */
  connectTimeoutMs?: number;
}

/**
 * A pg pool that survives the server going away (a restart, a failover, an outage). An idle connection's error is
 * handled by the pool, which drops it; a connection taken from the pool gets its own `'error'` listener, since pg
 * removes the pool's while it is checked out and an `'error'` without a listener ends the process (57P01 on
 * `pg_ctl restart -m fast` reaches a client between two statements of a transaction). The statement in flight
 * still fails its caller, who releases the connection with the error so the pool discards it.
 */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    ...(options.poolSize ? { max: options.poolSize } : {}),
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Notices a peer that vanished without closing the socket (a host down, a network cut).
    keepAlive: true,
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
