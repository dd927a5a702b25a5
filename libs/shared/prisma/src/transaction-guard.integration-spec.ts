import { openDatabase } from './open-database';
import { createScratchPostgresDatabase, type ScratchDatabase } from './scratch-database';
import { describeTransactionGuard } from './transaction-guard.test-cases';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: transaction guard on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('transactions that have ended, on Postgres', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
  });
  afterAll(() => scratch?.drop());

  describeTransactionGuard(
    () => openDatabase({ url: scratch.url, dataDir: 'unused' }),
    (db) => db.close(),
  );
});
