import { randomUUID } from 'node:crypto';
import { createJobBus, type JetStreamJobBus, type JobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { DestinationsRepository, DispatchRepository, ExportsRepository, RunProgressRepository, systemClock } from '@platform/export-data-access';
import { openTestExportDb, seedDestination, seedExport, testCipher, testSettings, type TestExportDb } from '@platform/export-data-access/testing';
import { startBackgroundLoop } from '@platform/export-exports';
import { dispatchOnce } from './dispatcher';
import { getRunCheckpoint } from './get-run-checkpoint.usecase';
import { reportProgress } from './report-progress.usecase';
import { recordingBus, testPartitionQueue } from './dispatch.testing';

// One shared partition queue, first come first served, with one worker slot: workspace A's backlog of 60 partitions
// is queued before B asks for 2. B's must not wait behind A's whole backlog (JetStream when NATS_URL is set).
jest.setTimeout(120_000);

const MAX_QUEUED = 3;
const settings = testSettings({ maxRunningExportsPerWorkspace: 15, maxRunningRunsPerExport: 45, maxQueuedRunsPerWorkspace: MAX_QUEUED });
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

it("publishes a workspace's runs a few at a time, so another's export is taken before the first's backlog is done", async () => {
  const prisma = t.db.prisma;
  const exportsRepo = new ExportsRepository(prisma);
  const [a, b] = [randomUUID(), randomUUID()];
  const destA = await seedDestination(new DestinationsRepository(prisma, cipher), a);
  const destB = await seedDestination(new DestinationsRepository(prisma, cipher), b);
  const exportsA = [];
  for (let i = 0; i < 6; i++) exportsA.push(await seedExport(exportsRepo, { tenantId: a, destinationId: destA.id, days: 10 }));
  const repository = new DispatchRepository(prisma, settings);
  const recorder = recordingBus(bus);
  const dispatcher = { repository, bus: recorder, clock: systemClock, logger: silentLogger, queue };

  // A's backlog is admitted and published first (no worker yet): only MAX_QUEUED of its runs wait in the queue.
  await dispatchOnce(dispatcher);
  expect(recorder.published).toHaveLength(MAX_QUEUED);
  const runsA = (await exportsRepo.runsOfExports(exportsA.map((e) => e.id)));
  expect(runsA).toHaveLength(60);
  // Admitted exports hold their capacity, but no run was taken: every run reads Created.
  expect(new Set(runsA.map((r) => r.status))).toEqual(new Set(['Created']));
  expect(await prisma.bulkExport.count({ where: { tenantId: a, status: 'Running' } })).toBe(6);

  const exportB = await seedExport(exportsRepo, { tenantId: b, destinationId: destB.id, days: 2 });
  await dispatchOnce(dispatcher);
  const bJobs = recorder.published.filter((p) => p.exportId === exportB.id);
  expect(bJobs).toHaveLength(2);
  // B's jobs are queued behind at most MAX_QUEUED of A's, not behind A's 60.
  expect(recorder.published.findIndex((p) => p.exportId === exportB.id)).toBeLessThanOrEqual(MAX_QUEUED);
  expect((await exportsRepo.runsOf(exportB.id)).map((r) => r.status)).toEqual(['Created', 'Created']);

  // One worker slot; a worker taking a run wakes the dispatcher (as the export service wires it).
  const progress = new RunProgressRepository(prisma, cipher, settings);
  const loop = startBackgroundLoop('dispatcher', 60_000, () => dispatchOnce(dispatcher), silentLogger);
  const deps = { progress, clock: systemClock, workAvailable: () => loop.wake() };
  const order: string[] = [];
  const statusWhileRunning: string[] = [];
  const consumer = await bus.consume(
    queue,
    async (job) => {
      const checkpoint = await getRunCheckpoint(deps, job.data.export_id, job.data.run_id);
      if (!checkpoint.continue_run) return;
      order.push(job.data.export_id);
      if (job.data.export_id === exportB.id) statusWhileRunning.push((await exportsRepo.findRun(exportB.id, job.data.run_id))?.status ?? 'gone');
      await sleep(20);
      await reportProgress(deps, {
        export_id: job.data.export_id,
        run_id: job.data.run_id,
        attempt: checkpoint.attempt,
        cursor: null,
        files: [],
        rows_written: '1',
        bytes_written: '1',
        done: true,
      } as never);
    },
    { durable: `fair-${randomUUID().slice(0, 8)}`, concurrency: 1, ackWaitMs: 30_000 },
  );
  try {
    const deadline = Date.now() + 60_000;
    while ((await prisma.bulkExport.findUniqueOrThrow({ where: { id: exportB.id } })).status !== 'Completed') {
      if (Date.now() > deadline) throw new Error(`B not done; runs taken: ${order.length}`);
      await sleep(50);
    }
  } finally {
    await consumer.stop();
    await loop.stop();
  }
  expect(statusWhileRunning).toEqual(['Running', 'Running']);
  const lastOfB = order.lastIndexOf(exportB.id);
  // B's second run was taken within its first few turns, while most of A's backlog still waited.
  expect(lastOfB).toBeLessThanOrEqual(2 * MAX_QUEUED + 1);
  const doneA = await prisma.bulkExportRun.count({ where: { tenantId: a, status: 'Completed' } });
  expect(doneA).toBeLessThan(20);
});
