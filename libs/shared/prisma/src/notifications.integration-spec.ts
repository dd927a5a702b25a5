import type { Database } from './database.types';
import { describeNotifications, eventually } from './notifications.test-cases';
import { openDatabase } from './open-database';
import { createScratchPostgresDatabase, type ScratchDatabase } from './scratch-database';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
// stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: LISTEN/NOTIFY on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('LISTEN/NOTIFY on Postgres', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
  });
  afterAll(() => scratch?.drop());

  describeNotifications(
    () => openDatabase({ url: scratch.url, dataDir: 'unused' }),
    (db) => db.close(),
  );

  it('listens again after its connection is killed, and says so', async () => {
    const db: Database = await openDatabase({ url: scratch.url, dataDir: 'unused' });
    try {
      const got: string[] = [];
      let reconnects = 0;
      await db.listen('runs_test', { onNotify: (p) => got.push(p), onReconnect: () => reconnects++ });
      await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "runs_test"' AND pid <> pg_backend_pid()`);
      await eventually(() => reconnects === 1);
      await db.notify('runs_test', 'back');
      await eventually(() => got.includes('back'));
    } finally {
      await db.close();
    }
  });
});
