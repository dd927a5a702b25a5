import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';
import { overriding } from './overriding';

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory['connect']>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<Transaction['queryRaw']>[0];

const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;


/** What Prisma reports as P1018 ("transaction already closed"), the same error shape the adapters throw. */
function transactionClosed(sql: string): Error {
  const message = `The transaction had already ended (committed, rolled back or timed out) when this statement was issued: ${sql.slice(0, 120)}`;
  return Object.assign(new Error(message), { name: 'DriverAdapterError', cause: { kind: 'TransactionAlreadyClosed', cause: message } });
}

/**
 * A transaction that refuses statements once its end has been issued.
 *
 * Prisma's client engine (6.19) ends a transaction whose interactive timeout fires by sending ROLLBACK on its
 * connection and releasing the connection to the pool, while the operation under way still holds the
 * transaction and goes on issuing its remaining statements. Those would then run outside any transaction (a
 * nested create's read-back finds nothing and the create resolves `null`; a later write commits on its own),
 * or inside another caller's transaction once the pool hands the connection out again. A driver runs one
 * connection's statements in the order they are issued, so refusing every statement issued after the
 * COMMIT/ROLLBACK is exactly the set that would have run outside the transaction.
 */
function guardedTransaction(inner: Transaction): Transaction {
  let ended = false;
  const admit = (query: SqlQuery) => {
    if (ended) throw transactionClosed(query.sql);
    if (ENDS_TRANSACTION.test(query.sql)) ended = true;
  };
  return overriding(inner, {
    queryRaw: async (query: SqlQuery) => {
      admit(query);
      return inner.queryRaw(query);
    },
    executeRaw: async (query: SqlQuery) => {
      admit(query);
      return inner.executeRaw(query);
    },
    commit: async () => {
      ended = true;
      return inner.commit();
    },
    rollback: async () => {
      ended = true;
      return inner.rollback();
    },
  });
}

function guardedAdapter(inner: SqlDriverAdapter): SqlDriverAdapter {
  return overriding(inner, {
    startTransaction: async (...args: Parameters<SqlDriverAdapter['startTransaction']>) => guardedTransaction(await inner.startTransaction(...args)),
  });
}

/** `factory` with every transaction it starts guarded as `guardedTransaction` describes. */
export function guardTransactions(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return overriding(factory, {
    connect: async () => guardedAdapter(await factory.connect()),
  });
}
