import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import type { Database, SqlRunner, SqlSession } from './database.types';
import { asDatabaseUnavailable, isConnectFailure, isDatabaseUnavailable, retryWhileUnavailable } from './database-unavailable';
import { createPostgresPool } from './postgres-pool';
import { checkedChannel } from './notification-channel';
import { PostgresListener } from './postgres-listener';
import { StatementNames } from './statement-names';

type Queryable = pg.Pool | pg.PoolClient;

/** SQLSTATE 0A000, which Postgres raises as "cached plan must not change result type". */
const FEATURE_NOT_SUPPORTED = '0A000';

function runner(client: Queryable, names: StatementNames, transactional = false): SqlRunner {
  return {
    // Without parameters pg uses the simple query protocol, which accepts several statements.
    exec: async (sql) => {
      await client.query(sql);
    },
    // Only a statement with parameters is prepared: one without stays on the simple protocol, as `exec`.
    query: async <Row>(sql: string, params: unknown[] = []) => {
      const name = params.length > 0 ? names.nameOf(sql) : undefined;
      try {
        return (await client.query({ text: sql, values: params, name })).rows as Row[];
      } catch (err) {
        // A migration changed what a statement prepared before it returns (a replica still running during a
        // rolling upgrade): Postgres refuses the old plan, so run the text unnamed instead. Not inside a
        // transaction, which the error aborted: that one fails, and its connection is discarded (withClient).
        if (name === undefined || transactional || (err as { code?: string }).code !== FEATURE_NOT_SUPPORTED) throw err;
        return (await client.query({ text: sql, values: params })).rows as Row[];
      }
    },
  };
}

// Errors of a transaction that lost its connection before COMMIT was sent: it surely rolled back, so running it
// again cannot apply it twice.
const rolledBack = new WeakSet<object>();

async function inTransaction<T>(
  client: pg.PoolClient,
  names: StatementNames,
  fn: (tx: SqlRunner) => Promise<T>,
): Promise<T> {
  let committing = false;
  try {
    await client.query('BEGIN');
    const result = await fn(runner(client, names, true));
    committing = true;
    await client.query('COMMIT');
    return result;
  } catch (err) {
    if (!committing && isDatabaseUnavailable(err) && typeof err === 'object' && err !== null) rolledBack.add(err);
    // Keep the original error; a failed ROLLBACK leaves a broken connection that withClient discards.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    // Nothing ran (a server restarting resets new connections): safe to run again.
    if (typeof err === 'object' && err !== null) rolledBack.add(err);
    throw err;
  }
  return withConnected(client, fn);
}

async function withConnected<T>(client: pg.PoolClient, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    const result = await fn(client);
    client.release();
    return result;
  } catch (err) {
    // After a failure the connection may still hold a transaction or a lock: discard it, don't reuse it.
    client.release(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}

// Postgres ends a deadlock by aborting one of its transactions (40P01), and may abort a transaction that lost a
// serialization race (40001); the documented remedy is to run it again. Transaction callbacks only touch the
// database (a NOTIFY is sent on commit), so the whole callback runs again, on a fresh connection; a statement
// outside a transaction simply runs again.
const ABORTED_BY_CONCURRENCY = new Set(['40P01', '40001']);
const TRANSACTION_ATTEMPTS = 5;

async function rerunIfAborted<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= TRANSACTION_ATTEMPTS || !ABORTED_BY_CONCURRENCY.has((err as { code?: string }).code ?? '')) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

// A lost server (a restart) is waited out for a moment: an operation that never reached it runs again, as does a
// transaction cut before its COMMIT; anything else (a statement cut mid-flight, whose effect is unknown) fails at
// once. Either way what reaches the caller is "database unavailable", never the driver's error.
const rerunnable = (err: unknown) => isConnectFailure(err) || (typeof err === 'object' && err !== null && rolledBack.has(err));

function session(client: pg.PoolClient, names: StatementNames): SqlSession {
  return { ...runner(client, names), transaction: (fn) => inTransaction(client, names, fn) };
}

/** Opens a Postgres database through one pg pool, shared by Prisma (via the adapter) and raw SQL. */
export function openPostgresDatabase(url: string, options: { poolSize?: number; connectTimeoutMs?: number } = {}): Database {
  const pool = createPostgresPool(url, options);
  // LISTEN needs a connection of its own; it is opened on the first listen().
  const listener = new PostgresListener(url);
  const names = new StatementNames();
  const direct = runner(pool, names);
  let closed = false;
  return {
    kind: 'postgres',
    adapter: new PrismaPg(pool, { disposeExternalPool: false }),
    exec: (sql) => retryWhileUnavailable(() => direct.exec(sql)),
    // A statement on its own is a transaction of its own: the same remedy applies.
    query: <Row>(sql: string, params?: unknown[]) => retryWhileUnavailable(() => rerunIfAborted(() => direct.query<Row>(sql, params))),
    transaction: (fn) => retryWhileUnavailable(() => rerunIfAborted(() => withClient(pool, (client) => inTransaction(client, names, fn))), rerunnable),
    // Only getting the connection is tried again: the session's own work may have had effects.
    withSession: async (fn) => {
      const client = await retryWhileUnavailable(() => pool.connect());
      return withConnected(client, (held) => fn(session(held, names))).catch((err: unknown) => {
        throw asDatabaseUnavailable(err);
      });
    },
    listen: (channel, handler) => listener.listen(channel, handler),
    notify: async (channel, payload) => {
      await retryWhileUnavailable(() => pool.query('SELECT pg_notify($1, $2)', [checkedChannel(channel), payload]));
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
  };
}
