import { createScratchPostgresDatabase } from '@platform/prisma';
import { openAgentServerDatabase, type AgentServerDatabase } from './agent-server-database';

export interface TestAgentServerDatabase {
  db: AgentServerDatabase;
  /** The scratch Postgres database's URL (another client on it is another replica); undefined on PGlite. */
  url?: string;
  /** Closes the client and drops the scratch database. */
  close(): Promise<void>;
}

/**
 * A migrated agent-server database of the test's own: a scratch Postgres database when DATABASE_URL is set, else
 * in-memory PGlite. (Libs may not import @platform/testing, hence the scratch database from @platform/prisma.)
 */
export async function openTestAgentServerDatabase(): Promise<TestAgentServerDatabase> {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  const db = await openAgentServerDatabase({ url: scratch?.url, dataDir: 'memory://' });
  await db.migrate();
  return {
    db,
    url: scratch?.url,
    async close() {
      await db.close();
      await scratch?.drop();
    },
  };
}
