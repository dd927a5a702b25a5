import { ConflictError } from '@platform/errors';
import { createScratchPostgresDatabase, mapPrismaError, type ScratchDatabase } from '@platform/prisma';
import { openGatewayDatabase, type GatewayDatabase } from './gateway-database';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') {
  throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
}
// Written to stderr, not console.warn: Jest drops console output of a suite whose tests are all skipped.
if (!adminUrl) process.stderr.write('SKIPPED: gateway database on Postgres tests (set DATABASE_URL to run them)\n');

(adminUrl ? describe : describe.skip)('gateway database (Postgres)', () => {
  let scratch: ScratchDatabase;
  let db: GatewayDatabase;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!);
    db = await openGatewayDatabase({ url: scratch.url, dataDir: 'unused' });
    expect(await db.migrate()).toEqual([expect.stringMatching(/_init$/), expect.stringMatching(/_browser_sessions$/), expect.stringMatching(/_workspace_limits$/)]);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it('migrates, round-trips an organization and maps a duplicate to ConflictError', async () => {
    expect(db.kind).toBe('postgres');
    expect(await db.ready()).toBe(true);
    const org = await db.prisma.organization.create({ data: { name: 'acme' } });
    expect(await db.prisma.organization.findUnique({ where: { id: org.id } })).toMatchObject({ name: 'acme' });

    const err = await db.prisma.organization.create({ data: { name: 'acme' } }).catch((e: unknown) => e);
    expect(mapPrismaError(err)).toBeInstanceOf(ConflictError);
  });
});
