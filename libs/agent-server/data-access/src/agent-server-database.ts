import { findMigrationsDir, openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from '@platform/prisma';
import { PrismaClient } from './generated/prisma/client';

/** `prisma/agent-server/migrations`, found from this file's directory (source or bundle). */
export const agentServerMigrationsDir = findMigrationsDir('agent-server', __dirname);

/** The agent-server database: Prisma client, migrations, readiness, shutdown. */
export type AgentServerDatabase = ServiceDatabase<PrismaClient>;

/**
 * Opens the agent-server database: Postgres when `url` is set, else PGlite in `dataDir` (`memory://` for tests).
 * Migrations are not applied here; call `migrate()` (once per release, or in tests).
 */
export function openAgentServerDatabase(options: ServiceDatabaseOptions): Promise<AgentServerDatabase> {
  return openServiceDatabase(PrismaClient, agentServerMigrationsDir, options);
}
