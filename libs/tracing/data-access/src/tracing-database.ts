import { findMigrationsDir, openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from '@platform/prisma';
import { PrismaClient } from './generated/prisma/client';

/** `prisma/tracing/migrations`, found from this file's directory (source or bundle). */
export const tracingMigrationsDir = findMigrationsDir('tracing', __dirname);

/** The tracing database: Prisma client, migrations, readiness, shutdown. */
export type TracingDatabase = ServiceDatabase<PrismaClient>;

/**
 * Opens the tracing database: Postgres when `url` is set, else PGlite in `dataDir` (`memory://` for tests).
 * Migrations are not applied here; call `migrate()` (once per release, or in tests).
 */
export function openTracingDatabase(options: ServiceDatabaseOptions): Promise<TracingDatabase> {
  return openServiceDatabase(PrismaClient, tracingMigrationsDir, options);
}
