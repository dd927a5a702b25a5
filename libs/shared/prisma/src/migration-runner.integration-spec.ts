import type { Database } from './database.types';
import { describeMigrationRunner } from './migration-runner.test-cases';
import { openDatabase } from './open-database';
import { createScratchPostgresDatabase } from './scratch-database';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') {
  throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
}
// Written to stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: migrate on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('migrate on Postgres', () => {
  describeMigrationRunner(async () => {
    const scratch = await createScratchPostgresDatabase(adminUrl!);
    const opened: Database[] = [];
    return {
      open: async () => {
        const db = await openDatabase({ url: scratch.url, dataDir: 'unused' });
        opened.push(db);
        return db;
      },
      dispose: async () => {
        await Promise.all(opened.map((db) => db.close()));
        await scratch.drop();
      },
    };
  });
});

(adminUrl ? describe : describe.skip)('createScratchPostgresDatabase', () => {
  it('creates a database and drops it even with a connection still open', async () => {
    const scratch = await createScratchPostgresDatabase(adminUrl!);
    const db = await openDatabase({ url: scratch.url, dataDir: 'unused' });
    expect(await db.query('SELECT current_database() AS name')).toEqual([{ name: new URL(scratch.url).pathname.slice(1) }]);

    await scratch.drop();

    const admin = await openDatabase({ url: adminUrl!, dataDir: 'unused' });
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(scratch.url).pathname.slice(1)]);
    await admin.close();
    await db.close().catch(() => undefined);
    expect(left).toEqual([]);
  });
});
