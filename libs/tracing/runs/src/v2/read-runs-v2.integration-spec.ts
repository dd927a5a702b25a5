import { createScratchPostgresDatabase } from '@platform/prisma';
import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeReadRunsV2 } from './read-runs-v2.suite';

// The same cases as read-runs-v2.spec.ts, on real Postgres through the pg driver adapter.
const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: v2 run reads on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('v2 run reads on Postgres', () => {
  describeReadRunsV2('read runs v2', async () => {
    const scratch = await createScratchPostgresDatabase(adminUrl!);
    const db = await openTracingDatabase({ url: scratch.url, dataDir: 'unused' });
    await db.migrate();
    return { db, drop: () => scratch.drop() };
  });
});
