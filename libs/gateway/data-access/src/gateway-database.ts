import { findMigrationsDir, openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from '@platform/prisma';
import { PrismaClient } from './generated/prisma/client';

/** `prisma/gateway/migrations`, found from this file's directory (source or bundle). */
export const gatewayMigrationsDir = findMigrationsDir('gateway', __dirname);

/** The gateway database: Prisma client, migrations, readiness, shutdown. */
export type GatewayDatabase = ServiceDatabase<PrismaClient>;

/**
 * Opens the gateway database: Postgres when `url` is set, else PGlite in `dataDir` (`memory://` for tests).
 * Migrations are not applied here; call `migrate()` (once per release, or in tests).
 */
export function openGatewayDatabase(options: ServiceDatabaseOptions): Promise<GatewayDatabase> {
  return openServiceDatabase(PrismaClient, gatewayMigrationsDir, options);
}
