import { findMigrationsDir, openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from '@platform/prisma';
import { PrismaClient } from './generated/prisma/client';

/** `prisma/control-plane/migrations`, found from this file's directory (source or bundle). */
export const controlPlaneMigrationsDir = findMigrationsDir('control-plane', __dirname);

/** The control-plane database: Prisma client, migrations, readiness, shutdown. */
export type ControlPlaneDatabase = ServiceDatabase<PrismaClient>;

/**
 * Opens the control-plane database: Postgres when `url` is set, else PGlite in `dataDir` (`memory://` for tests).
 * Migrations are not applied here; call `migrate()` (once per release, or in tests).
 */
export function openControlPlaneDatabase(options: ServiceDatabaseOptions): Promise<ControlPlaneDatabase> {
  return openServiceDatabase(PrismaClient, controlPlaneMigrationsDir, options);
}
