import { randomUUID } from 'node:crypto';
import { createJobBus, type JetStreamJobBus, type JobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { DestinationsRepository, DispatchRepository, ExportsRepository, RunProgressRepository, systemClock } from '@platform/export-data-access';
import { openTestExportDb, seedDestination, seedExport, testCipher, testSettings, type TestExportDb } from '@platform/export-data-access/testing';
import { startBackgroundLoop } from '@platform/export-exports';
import { dispatchOnce } from './dispatcher';
import { recordingBus, testPartitionQueue } from './dispatch.testing';

// Two dispatchers (two database clients on Postgres, as two replicas would have) publish on the job bus (JetStream
// when NATS_URL is set, else in process) while consumers play workers through the progress state machine. A sampler
// watches the database: the limits must hold at every moment, and every partition must run exactly once.
jest.setTimeout(120_000);

const MAX_EXPORTS = 3;
const MAX_RUNS = 4;
const settings = testSettings({ maxRunningExportsPerWorkspace: MAX_EXPORTS, maxRunningRunsPerExport: MAX_RUNS });
const cipher = testCipher();
let t: TestExportDb;
let bus: JobBus;
const queue = testPartitionQueue();

beforeAll(async () => {
  t = await openTestExportDb();
  bus = await createJobBus({ natsUrl: process.env['NATS_URL'] || undefined });
});
afterAll(async () => {
  if (bus?.kind === 'jetstream') await (bus as JetStreamJobBus).deleteQueue(queue);
  await bus?.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(`holds ${MAX_EXPORTS} running exports per workspace and ${MAX_RUNS} running runs per export with concurrent dispatchers`, async () => {
  const prisma = t.db.prisma;
  const exportsRepo = new ExportsRepository(prisma);
  const busy = randomUUID();
  const other = randomUUID();
  const destA = await seedDestination(new DestinationsRepository(prisma, cipher), busy);
  const destB = await seedDestination(new DestinationsRepository(prisma, cipher), other);
  // 40 queued partitions in one workspace: 8 exports of 5 days; another workspace alongside.
  const exportsA = [];
  for (let i = 0; i < 8; i++) exportsA.push(await seedExport(exportsRepo, { tenantId: busy, destinationId: destA.id, days: 5 }));
  const exportB = await seedExport(exportsRepo, { tenantId: other, destinationId: destB.id, days: 3 });
  const allIds = [...exportsA, exportB].map((e) => e.id);

  const recorder = recordingBus(bus);
  const replicas = [t.db, await t.openReplica()];
  const loops = replicas.map((db, i) =>
    startBackgroundLoop(
      `dispatcher-${i}`,
      10,
      () => dispatchOnce({ repository: new DispatchRepository(db.prisma, settings), bus: recorder, clock: systemClock, logger: silentLogger, queue }),
      silentLogger,
    ),
  );

  const progress = new RunProgressRepository(replicas[1].prisma, cipher, settings);
  const started: string[] = [];
  const consumer = await bus.consume(
    queue,
    async (job) => {
      const start = await progress.start(job.data.export_id, job.data.run_id, new Date());
      if (!start.continueRun) return;
      started.push(job.data.run_id);
      await sleep(5 + Math.random() * 25);
      const report = { exportId: job.data.export_id, runId: job.data.run_id, attempt: start.run.attempt, cursor: null, files: [] };
      await progress.progress({ ...report, rowsWritten: 1n, bytesWritten: 1n, done: true }, new Date());
    },
    { durable: 'limits-test', concurrency: 40, ackWaitMs: 30_000 },
  );

  const peakExports = new Map<string, number>();
  const peakRuns = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const exportsRunning = await prisma.$queryRaw<{ tenant_id: string; n: bigint }[]>`
        SELECT tenant_id::text AS tenant_id, count(*) AS n FROM bulk_exports WHERE status = 'Running' GROUP BY tenant_id`;
      for (const r of exportsRunning) peakExports.set(r.tenant_id, Math.max(peakExports.get(r.tenant_id) ?? 0, Number(r.n)));
      const runsRunning = await prisma.$queryRaw<{ id: string; n: bigint }[]>`
        SELECT bulk_export_id::text AS id, count(*) AS n FROM bulk_export_runs WHERE status = 'Running' GROUP BY bulk_export_id`;
      for (const r of runsRunning) peakRuns.set(r.id, Math.max(peakRuns.get(r.id) ?? 0, Number(r.n)));
      await sleep(5);
    }
  })();

  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const open = await prisma.bulkExport.count({ where: { id: { in: allIds }, status: { not: 'Completed' } } });
      if (open === 0) break;
      if (Date.now() > deadline) throw new Error(`${open} exports still not Completed`);
      await sleep(50);
    }
  } finally {
    sampling = false;
    await sampler;
    await Promise.all(loops.map((l) => l.stop()));
    await consumer.stop();
  }

  expect(peakExports.get(busy)).toBe(MAX_EXPORTS);
  expect(Math.max(...exportsA.map((e) => peakRuns.get(e.id) ?? 0))).toBe(MAX_RUNS);
  for (const [, n] of peakRuns) expect(n).toBeLessThanOrEqual(MAX_RUNS);
  expect(peakExports.get(other)).toBe(1);

  const runs = await prisma.bulkExportRun.findMany({ where: { bulkExportId: { in: allIds } } });
  expect(runs).toHaveLength(43);
  expect(runs.every((r) => r.status === 'Completed' && r.attempt === 0 && Object.keys(r.errors as object).length === 0)).toBe(true);
  // Each partition published and run exactly once.
  const mine = recorder.published.filter((p) => allIds.includes(p.exportId));
  expect(new Set(mine.map((p) => p.runId)).size).toBe(43);
  expect(mine.filter((p) => !p.duplicate)).toHaveLength(43);
  expect(started.sort()).toEqual(runs.map((r) => r.id).sort());
});

it('concurrent dispatch transactions for one workspace cannot overshoot the limits', async () => {
  const prisma = t.db.prisma;
  const exportsRepo = new ExportsRepository(prisma);
  const tenant = randomUUID();
  const dest = await seedDestination(new DestinationsRepository(prisma, cipher), tenant);
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await seedExport(exportsRepo, { tenantId: tenant, destinationId: dest.id, days: 8 })).id);
  // Six replicas dispatch the same workspace at the same instant.
  const replicas = await Promise.all(Array.from({ length: 6 }, () => t.openReplica()));
  const now = new Date();
  const jobs = (await Promise.all(replicas.map((db) => new DispatchRepository(db.prisma, settings).dispatchWorkspace(tenant, now)))).flat();

  expect(await prisma.bulkExport.count({ where: { tenantId: tenant, status: 'Running' } })).toBe(MAX_EXPORTS);
  const perExport = await prisma.bulkExportRun.groupBy({ by: ['bulkExportId'], where: { tenantId: tenant, status: 'Running' }, _count: true });
  expect(perExport.map((g) => g._count)).toEqual([MAX_RUNS, MAX_RUNS, MAX_RUNS]);
  expect(jobs).toHaveLength(MAX_EXPORTS * MAX_RUNS);
  expect(new Set(jobs.map((j) => j.runId)).size).toBe(jobs.length);
});
