import type { Database, DriverAdapterFactory } from './database.types';

/** Any generated `PrismaClient` class: its options take a driver adapter. */
export type PrismaClientClass<Client> = new (options: { adapter: DriverAdapterFactory }) => Client;

/**
 * Builds a service's Prisma client on an open database (Postgres or PGlite), e.g.
 * `createPrismaClient(PrismaClient, db)`. Call `$disconnect()` on it before `db.close()`.
 */
export function createPrismaClient<Client>(PrismaClient: PrismaClientClass<Client>, db: Database): Client {
  return new PrismaClient({ adapter: db.adapter });
}
