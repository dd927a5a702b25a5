import type { Database, Notifications, SqlSession } from './database.types';
import { migrate, unappliedMigrations, type MigrationLogger } from './migration-runner';
import { NotMigratedError } from './migration.error';
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
  /**
   * What a service does at start: apply pending migrations (`MIGRATE_ON_START`), or check there are none and throw
   * NotMigratedError otherwise, so a service on an empty or older database stops at once instead of failing on
   * every query.
   */
  prepare(options: { migrate: boolean }): Promise<void>;
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
    prepare: async ({ migrate: apply }) => {
      if (apply) {
        await migrate(db, migrationsDir, logger);
        return;
      }
      const { pending, total } = await unappliedMigrations(db, migrationsDir);
      if (pending.length > 0) throw new NotMigratedError(pending, total);
    },
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
