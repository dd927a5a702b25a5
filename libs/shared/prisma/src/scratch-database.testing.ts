import { createScratchPostgresDatabase, type ScratchDatabase } from './scratch-database';

/**
 * `describe(title)` on the Postgres server at `DATABASE_URL`, with a scratch database created before its tests
 * and dropped after them; `body` reads it through `scratch()`. Without `DATABASE_URL` the tests are skipped with
 * the reason printed, or fail when `REQUIRE_SERVICES=1` (CI).
 */
export function describeOnScratchPostgres(title: string, body: (scratch: () => ScratchDatabase) => void): void {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  // stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
  if (!adminUrl) process.stderr.write(`SKIPPED: ${title} tests (set DATABASE_URL to run them)\n`);
  (adminUrl ? describe : describe.skip)(title, () => {
    let scratch: ScratchDatabase | undefined;
    beforeAll(async () => {
      scratch = await createScratchPostgresDatabase(adminUrl as string);
    });
    afterAll(() => scratch?.drop());
    body(() => {
      if (!scratch) throw new Error('the scratch database is made in beforeAll: read it from a hook or a test');
      return scratch;
    });
  });
}
