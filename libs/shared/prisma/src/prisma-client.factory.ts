import type { Database, DriverAdapterFactory } from './database.types';
import { guardTransactions } from './transaction-guard';

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

/**
 * Builds a service's Prisma client on an open database (Postgres or PGlite), e.g.
 * `createPrismaClient(PrismaClient, db)`. Its transactions refuse statements once they have ended (see
 * `guardTransactions`). Call `$disconnect()` on it before `db.close()`.
 */
export function createPrismaClient<Client>(PrismaClient: PrismaClientClass<Client>, db: Database): Client {
  return new PrismaClient({ adapter: guardTransactions(db.adapter), transactionOptions: TRANSACTION_LIMITS });
}
