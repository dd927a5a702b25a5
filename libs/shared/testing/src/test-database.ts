import { createScratchPostgresDatabase } from '@platform/prisma';

/** Where one test's service database lives: a fresh Postgres database, or in-memory PGlite. */
export interface TestDatabase {
  /** `DATABASE_URL` for the service; undefined means embedded PGlite. */
  url?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A database of the test's own: a scratch database on `DATABASE_URL`'s server when it is set (so tests run on
 * real Postgres in CI), else in-memory PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL?.trim();
  if (!adminUrl) {
    if (process.env.REQUIRE_SERVICES === '1') throw new Error('DATABASE_URL is not set, and REQUIRE_SERVICES=1 requires Postgres');
    return { dataDir: 'memory://', drop: async () => undefined };
  }
  const scratch = await createScratchPostgresDatabase(adminUrl);
  return { url: scratch.url, dataDir: 'memory://', drop: () => scratch.drop() };
}
