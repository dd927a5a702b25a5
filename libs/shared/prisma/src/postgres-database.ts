import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Database, SqlRunner, SqlSession } from './database.types';
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

async function inTransaction<T>(
  client: pg.PoolClient,
  names: StatementNames,
  fn: (tx: SqlRunner) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn(runner(client, names, true));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // Keep the original error; a failed ROLLBACK leaves a broken connection that withClient discards.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
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

function session(client: pg.PoolClient, names: StatementNames): SqlSession {
  return { ...runner(client, names), transaction: (fn) => inTransaction(client, names, fn) };
}

/** Opens a Postgres database through one pg pool, shared by Prisma (via the adapter) and raw SQL. */
export function openPostgresDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, ...(options.poolSize ? { max: options.poolSize } : {}) });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // LISTEN needs a connection of its own; it is opened on the first listen().
  const listener = new PostgresListener(url);
  const names = new StatementNames();
  const direct = runner(pool, names);
  let closed = false;
  return {
    kind: 'postgres',
    adapter: new PrismaPg(pool, { disposeExternalPool: false }),
    exec: direct.exec,
    // A statement on its own is a transaction of its own: the same remedy applies.
    query: <Row>(sql: string, params?: unknown[]) => rerunIfAborted(() => direct.query<Row>(sql, params)),
    transaction: (fn) => rerunIfAborted(() => withClient(pool, (client) => inTransaction(client, names, fn))),
    withSession: (fn) => withClient(pool, (client) => fn(session(client, names))),
    listen: (channel, handler) => listener.listen(channel, handler),
    notify: async (channel, payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [checkedChannel(channel), payload]);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
  };
}
