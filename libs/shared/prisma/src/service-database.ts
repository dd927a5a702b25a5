import type { Database, Notifications, SqlSession } from './database.types';
import { migrate, type MigrationLogger } from './migration-runner';
import { openDatabase, type OpenDatabaseOptions } from './open-database';
import { createPrismaClient, type PrismaClientClass } from './prisma-client.factory';

/** Options of a service's `open<Service>Database`. */
export interface ServiceDatabaseOptions extends OpenDatabaseOptions {
  /** Receives one line per applied migration. */
  logger?: MigrationLogger;
}

/** A service's database: its Prisma client plus migrations, readiness and shutdown. */
export interface ServiceDatabase<Client> {
  readonly kind: Database['kind'];
  readonly prisma: Client;
  /**
   * Raw SQL on the same connections as `prisma`, for hot paths and statements Prisma's API cannot express
   * (`FOR UPDATE SKIP LOCKED`, data-modifying CTEs); repositories are still the only code that uses it.
   */
  readonly sql: SqlSession;
  /** LISTEN/NOTIFY on this database (a dedicated connection on Postgres). */
  readonly notifications: Notifications;
  /** Applies pending migrations; returns their names. */
  migrate(): Promise<string[]>;
  /** True when the database answers `SELECT 1`; for `/ready`. */
  ready(): Promise<boolean>;
  /** Disconnects Prisma, then closes the pool or PGlite. */
  close(): Promise<void>;
}

/**
 * Opens a service's database with its generated Prisma client and migrations directory; the
 * data-access libs wrap this as `open<Service>Database`.
 */
export async function openServiceDatabase<Client extends { $disconnect(): Promise<void> }>(
  PrismaClient: PrismaClientClass<Client>,
  migrationsDir: string,
  { logger, ...where }: ServiceDatabaseOptions,
): Promise<ServiceDatabase<Client>> {
  const db = await openDatabase(where);
  const prisma = createPrismaClient(PrismaClient, db);
  return {
    kind: db.kind,
    prisma,
    sql: { exec: db.exec, query: db.query, transaction: db.transaction },
    notifications: { listen: db.listen, notify: db.notify },
    migrate: () => migrate(db, migrationsDir, logger),
    ready: async () => {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await db.close();
    },
  };
}
