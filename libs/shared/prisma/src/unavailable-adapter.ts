import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';
import { asDatabaseUnavailable, retryWhileUnavailable } from './database-unavailable';
import { overriding } from './overriding';

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory['connect']>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<Transaction['queryRaw']>[0];

async function mapped<T>(op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    throw asDatabaseUnavailable(err);
  }
}

function mappedTransaction(inner: Transaction): Transaction {
  return overriding(inner, {
    queryRaw: (query: SqlQuery) => mapped(inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => mapped(inner.executeRaw(query)),
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
