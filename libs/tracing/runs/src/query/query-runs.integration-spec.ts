import { createScratchPostgresDatabase } from '@platform/prisma';
import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeQueryRuns } from './query-runs.suite';

// The same cases as query-runs.usecase.spec.ts, on real Postgres through the pg driver adapter. (Domain libs may not import
// @platform/testing, hence the scratch database from @platform/prisma, as the data-access libs do.)
const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: runs query on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('runs query on Postgres', () => {
  describeQueryRuns('queryRuns', async () => {
    const scratch = await createScratchPostgresDatabase(adminUrl!);
    const db = await openTracingDatabase({ url: scratch.url, dataDir: 'unused' });
    await db.migrate();
    return { db, drop: () => scratch.drop() };
  });
});
