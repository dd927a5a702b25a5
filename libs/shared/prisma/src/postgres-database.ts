import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Database, SqlRunner, SqlSession } from './database.types';
import { checkedChannel } from './notification-channel';
import { PostgresListener } from './postgres-listener';

type Queryable = pg.Pool | pg.PoolClient;

function runner(client: Queryable): SqlRunner {
  return {
    // Without parameters pg uses the simple query protocol, which accepts several statements.
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
  };
}

async function inTransaction<T>(client: pg.PoolClient, fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn(runner(client));
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

function session(client: pg.PoolClient): SqlSession {
  return { ...runner(client), transaction: (fn) => inTransaction(client, fn) };
}

/** Opens a Postgres database through one pg pool, shared by Prisma (via the adapter) and raw SQL. */
export function openPostgresDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, ...(options.poolSize ? { max: options.poolSize } : {}) });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // LISTEN needs a connection of its own; it is opened on the first listen().
  const listener = new PostgresListener(url);
  let closed = false;
  return {
    kind: 'postgres',
    adapter: new PrismaPg(pool, { disposeExternalPool: false }),
    ...runner(pool),
    transaction: (fn) => withClient(pool, (client) => inTransaction(client, fn)),
    withSession: (fn) => withClient(pool, (client) => fn(session(client))),
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
