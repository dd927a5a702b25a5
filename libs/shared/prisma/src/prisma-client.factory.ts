import type { Database, DriverAdapterFactory } from './database.types';
import { unwrapDatabaseUnavailable } from './database-unavailable';
import { guardTransactions } from './transaction-guard';
import { mapUnavailable } from './unavailable-adapter';

/**
 * Interactive transactions' limits unless a `$transaction` call sets its own: how long to wait for a connection
 * to start one on, and how long one may stay open before Prisma rolls it back. Prisma's own defaults (2 s and
 * 5 s) are reached by short transactions on a busy host: a stall of the event loop or a burst of waiting for
 * the pool is enough. The timeout is there to free a connection held by a transaction that hangs, not to fail
 * ordinary ones under load.
 */
const TRANSACTION_LIMITS = { maxWait: 10_000, timeout: 30_000 };

/** Any generated `PrismaClient` class: its options take a driver adapter and transaction limits. */
export type PrismaClientClass<Client> = new (options: { adapter: DriverAdapterFactory; transactionOptions?: { maxWait?: number; timeout?: number } }) => Client;

interface QueryExtension {
  $extends(extension: {
    name: string;
    query: { $allOperations(params: { args: unknown; query: (args: unknown) => Promise<unknown> }): Promise<unknown> };
  }): unknown;
  $transaction(...args: unknown[]): Promise<unknown>;
}

/**
 * Prisma re-wraps what the adapter throws (a `ServiceUnavailableError` comes out as a PrismaClientKnownRequestError
 * with its code): every operation, and `$transaction` itself, hands the caller the platform error again.
 */
function withUnavailableErrors<Client>(client: Client): Client {
  const extended = (client as unknown as QueryExtension).$extends({
    name: 'database-unavailable',
    query: {
      $allOperations: ({ args, query }) => query(args).catch((err: unknown) => Promise.reject(unwrapDatabaseUnavailable(err))),
    },
  }) as QueryExtension;
  const transaction = (...args: unknown[]) => extended.$transaction(...args).catch((err: unknown) => Promise.reject(unwrapDatabaseUnavailable(err)));
  return new Proxy(extended, {
    get: (target, prop, receiver) => (prop === '$transaction' ? transaction : Reflect.get(target, prop, receiver)),
  }) as unknown as Client;
}

/**
 * Builds a service's Prisma client on an open database (Postgres or PGlite), e.g.
 * `createPrismaClient(PrismaClient, db)`. Its transactions refuse statements once they have ended (see
 * `guardTransactions`); a lost database fails its operations with `ServiceUnavailableError`. Call `$disconnect()`
 * on it before `db.close()`.
 */
export function createPrismaClient<Client>(PrismaClient: PrismaClientClass<Client>, db: Database): Client {
  const client = new PrismaClient({ adapter: guardTransactions(mapUnavailable(db.adapter)), transactionOptions: TRANSACTION_LIMITS });
  return withUnavailableErrors(client);
}
