import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only helpers, in a spec
import { describeWithService } from '@platform/testing';
import { openControlPlaneDatabase, type ControlPlaneDatabase } from './control-plane-database';

// Seen once in CI: a transaction's interactive timeout fired while a nested create was under way; Prisma rolled
// back and released the connection, and the create went on with its read-back outside the transaction, found
// nothing and resolved `null`. Writes issued that way would commit on their own.
describeWithService('DATABASE_URL', 'Postgres (control-plane database)')('control-plane database (Postgres)', () => {
  let scratch: ScratchDatabase;
  let db: ControlPlaneDatabase;
  let other: pg.Client;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(process.env.DATABASE_URL as string);
    db = await openControlPlaneDatabase({ url: scratch.url, dataDir: 'unused' });
    await db.migrate();
    other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await db?.close();
    await scratch?.drop();
  });

  it('fails an update whose transaction times out mid-operation, and none of its writes land', async () => {
    const tenantId = randomUUID();
    const { id } = await db.prisma.deployment.create({
      data: { tenantId, name: 'timed-out', source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'AWAITING_DATABASE' },
    });
    // Another session holds the deployments table, so the update's first statement waits past the timeout.
    await other.query('BEGIN');
    await other.query('LOCK TABLE deployments IN ACCESS EXCLUSIVE MODE');
    const outcome = db.prisma
      .$transaction(
        (tx) => tx.deployment.update({ where: { id }, data: { status: 'READY', secrets: { create: [{ name: 'API_TOKEN', value: 'sealed' }] } } }),
        { timeout: 300 },
      )
      .then(
        (value) => ({ value }),
        (error: Error) => ({ error }),
      );
    await new Promise((resolve) => setTimeout(resolve, 600));
    await other.query('COMMIT');

    expect(await outcome).toEqual({ error: expect.any(Error) });
    // Without the guard, the statements after Prisma's ROLLBACK ran on their own and committed.
    const row = await db.prisma.deployment.findUniqueOrThrow({ where: { id }, include: { secrets: true } });
    expect(row).toMatchObject({ status: 'AWAITING_DATABASE', secrets: [] });
  });

  it('still commits a transaction that outlasts Prisma’s 5 s default', async () => {
    const tenantId = randomUUID();
    await db.prisma.$transaction(async (tx) => {
      await tx.deployment.create({ data: { tenantId, name: 'slow', source: 'external_docker', sourceConfig: {}, sourceRevisionConfig: {}, status: 'AWAITING_DATABASE' } });
      await tx.$executeRaw`SELECT pg_sleep(5.5)`;
    });
    expect(await db.prisma.deployment.count({ where: { tenantId } })).toBe(1);
  }, 20_000);
});
