import { createScratchPostgresDatabase } from '@platform/prisma';
import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeFilterSemantics } from './filter-semantics.suite';

// The same cases as filter-semantics.spec.ts, on real Postgres through the pg driver adapter. (Domain libs may not import
// @platform/testing, hence the scratch database from @platform/prisma, as the data-access libs do.)
const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: filter semantics on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('filter semantics on Postgres', () => {
  describeFilterSemantics('compiled filters', async () => {
    const scratch = await createScratchPostgresDatabase(adminUrl!);
    const db = await openTracingDatabase({ url: scratch.url, dataDir: 'unused' });
    await db.migrate();
    return { db, drop: () => scratch.drop() };
  });
});
