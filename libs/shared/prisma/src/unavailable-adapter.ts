import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';
import { asDatabaseUnavailable, isDatabaseUnavailable, retryWhileUnavailable } from './database-unavailable';
import { overriding } from './overriding';

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory['connect']>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<Transaction['queryRaw']>[0];

/**
 * A transaction whose connection is handed back to the pool (and, being broken, discarded there) as soon as a
 * statement finds the server gone. Prisma (6.19) calls neither `commit` nor `rollback` when its COMMIT statement
 * fails, so the connection stayed checked out for good: the pool shrank with each restart and `pool.end()` hung.
 */
function mappedTransaction(inner: Transaction): Transaction {
  let released = false;
  const release = (end: () => Promise<void>) => {
    if (released) return Promise.resolve();
    released = true;
    return end();
  };
  const statement = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (isDatabaseUnavailable(err)) await release(() => inner.rollback()).catch(() => undefined);
      throw asDatabaseUnavailable(err);
    }
  };
  return overriding(inner, {
    queryRaw: (query: SqlQuery) => statement(() => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => statement(() => inner.executeRaw(query)),
    commit: () => release(() => inner.commit()),
    rollback: () => release(() => inner.rollback()),
  });
}

function mappedAdapter(inner: SqlDriverAdapter): SqlDriverAdapter {
  return overriding(inner, {
    // Outside a transaction only a failure to connect is tried again: a statement cut mid-flight may have run.
    queryRaw: (query: SqlQuery) => retryWhileUnavailable(() => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => retryWhileUnavailable(() => inner.executeRaw(query)),
    startTransaction: async (...args: Parameters<SqlDriverAdapter['startTransaction']>) =>
      mappedTransaction(await retryWhileUnavailable(() => inner.startTransaction(...args))),
  });
}

/**
 * `factory` whose statements fail with the retryable "database unavailable" (`ServiceUnavailableError`) when the
 * server is gone, after waiting a moment for one that is restarting; Prisma passes the error through to the caller.
 */
export function mapUnavailable(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return overriding(factory, {
    connect: async () => mappedAdapter(await factory.connect()),
  });
}
