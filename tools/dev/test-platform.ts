// The whole platform for end-to-end tests: every service in-process, each on a database of its own (a scratch
// Postgres database when DATABASE_URL is set, else in-memory PGlite), the bus on NATS when NATS_URL is set.
import { silentLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { DATABASE_SERVICES, startPlatform, type DatabaseService, type RunningPlatform } from './platform';

export const TEST_INTERNAL_SECRET = 'e2e-internal-secret-0123456789';

export interface TestPlatform extends RunningPlatform {
  databases: Record<DatabaseService, TestDatabase>;
  /** The bootstrap admin key and its workspace. */
  adminKey: string;
  workspaceId: string;
}

export async function startTestPlatform(): Promise<TestPlatform> {
  const databases = Object.fromEntries(
    await Promise.all(DATABASE_SERVICES.map(async (s) => [s, await createTestDatabase()] as const)),
  ) as Record<DatabaseService, TestDatabase>;
  const dropAll = () => Promise.all(Object.values(databases).map((d) => d.drop()));
  let platform: RunningPlatform;
  try {
    platform = await startPlatform({
      dataDir: 'memory://',
      databaseUrls: Object.fromEntries(DATABASE_SERVICES.map((s) => [s, databases[s].url])),
      natsUrl: process.env.NATS_URL || undefined,
      internalSecret: TEST_INTERNAL_SECRET,
      migrate: true,
      logger: () => silentLogger,
    });
  } catch (err) {
    await dropAll();
    throw err;
  }
  const bootstrap = platform.gateway.bootstrap;
  if (!bootstrap) throw new Error('a fresh platform must bootstrap its identity');
  return {
    ...platform,
    databases,
    adminKey: bootstrap.apiKey,
    workspaceId: bootstrap.workspace.id,
    stop: async () => {
      await platform.stop();
      await dropAll();
    },
  };
}
