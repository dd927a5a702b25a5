import { findMigrationsDir, openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from '@platform/prisma';
import { PrismaClient } from './generated/prisma/client';

/** `prisma/export/migrations`, found from this file's directory (source or bundle). */
export const exportMigrationsDir = findMigrationsDir('export', __dirname);

/** The export database: Prisma client, migrations, readiness, shutdown. */
export type ExportDatabase = ServiceDatabase<PrismaClient>;

/**
 * Opens the export database: Postgres when `url` is set, else PGlite in `dataDir` (`memory://` for tests).
 * Migrations are not applied here; call `migrate()` (once per release, or in tests).
 */
export function openExportDatabase(options: ServiceDatabaseOptions): Promise<ExportDatabase> {
  return openServiceDatabase(PrismaClient, exportMigrationsDir, options);
}
