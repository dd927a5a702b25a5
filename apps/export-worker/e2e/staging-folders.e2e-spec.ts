// The staging folders of export-worker PROCESSES (each partition's rows and Parquet files live in the worker's
// `export-parquet-*` folder under EXPORT_WORKER_TMP_DIR until uploaded): a graceful stop (SIGTERM) in the middle of
// a partition leaves none, and the folder of a worker killed with SIGKILL in the middle of one is removed by another
// worker on the same temp directory while it runs, within its sweep interval. On the shared test platform (the
// tracing and export services on Postgres databases of their own), JetStream and s3rver on loopback.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { signIdentity } from '@platform/identity';
import { serviceUrl } from '@platform/testing';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { DAY_US, insertProject, insertRuns, T0_US } from '@platform/tracing-data-access/testing';
import { startTestPlatform, TEST_INTERNAL_SECRET, type TestPlatform } from '../../../tools/dev/test-platform';
import { createS3Destination, jsonApi, waitFor } from '../../export/e2e/export.e2e.testing';
import { deletePartitionQueue, startWorkerProcess, stopWorkerProcesses, uniquePartitionQueue, type WorkerProcess } from './worker-processes.e2e.testing';

const BUCKET = 'staging';
const DAYS = ['2024-05-01', '2024-05-02'];
const RUNS_PER_DAY = 2_400;
/** The sweep interval of the workers sharing a temp directory (30 s by default). */
const SWEEP_MS = 1_000;

const runsRequired = Boolean(serviceUrl('DATABASE_URL', 'Postgres (export staging e2e)')) && Boolean(serviceUrl('NATS_URL', 'NATS JetStream (export staging e2e)'));
const describeWithServices = runsRequired ? describe : describe.skip;

/** The staging folders under a temp directory, with their owner's pid (owner.json) and whether a file is open. */
function stagingFolders(dir: string): { path: string; pid?: number; openFile: boolean }[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith('export-parquet-'));
  } catch {
    return [];
  }
  return names.map((name) => {
    const folder = path.join(dir, name);
    let pid: number | undefined;
    let openFile = false;
    try {
      pid = (JSON.parse(readFileSync(path.join(folder, 'owner.json'), 'utf8')) as { pid: number }).pid;
      openFile = readdirSync(folder).some((f) => f.startsWith('file-'));
    } catch {
      // Being created or removed.
    }
    return { path: folder, pid, openFile };
  });
}

describeWithServices('export-worker staging folders across real processes', () => {
  const tenantId = randomUUID();
  const sessionId = randomUUID();
  const queue = uniquePartitionQueue('export-staging');
  /** One worker's own temp directory (the SIGTERM test) and one shared by two workers (the SIGKILL test). */
  const ownDir = mkdtempSync(path.join(tmpdir(), 'export-staging-own-'));
  const sharedDir = mkdtempSync(path.join(tmpdir(), 'export-staging-shared-'));
  let platform: TestPlatform;
  let tracingDb: TracingDatabase;
  let s3: TestS3Server;
  let grpc: { tracing: string; export: string };
  let first: WorkerProcess;
  const started: WorkerProcess[] = [];
  let api: ReturnType<typeof jsonApi>;
  let destinationId: string;

  const startWorker = async (index: number, tmpDir: string) => {
    const worker = await startWorkerProcess(index, {
      queue,
      natsUrl: process.env.NATS_URL as string,
      tracingGrpc: grpc.tracing,
      exportGrpc: grpc.export,
      internalSecret: TEST_INTERNAL_SECRET,
      tmpDir,
      env: {
        // Small files: a partition of 2,400 runs is six files and takes seconds, a file open most of the time.
        EXPORT_WORKER_FILE_MAX_ROWS: '400',
        EXPORT_WORKER_STREAM_BATCH_SIZE: '200',
        // A killed worker's job comes back after 3 s without heartbeats.
        EXPORT_WORKER_ACK_WAIT: '3s',
        EXPORT_WORKER_RETRY_DELAY: '500ms',
        EXPORT_WORKER_DUCKDB_THREADS: '1',
        EXPORT_WORKER_DUCKDB_MEMORY: '256MB',
        EXPORT_WORKER_STAGING_SWEEP_INTERVAL: `${SWEEP_MS}ms`,
      },
    });
    started.push(worker);
    return worker;
  };

  const exportDay = async (day: string): Promise<string> => {
    const created = await api('POST', '/bulk-exports', {
      bulk_export_destination_id: destinationId,
      session_id: sessionId,
      start_time: `${day}T00:00:00Z`,
      end_time: `${day}T23:59:59Z`,
      format_version: 'v2_beta',
      compression: 'snappy',
    });
    expect(created.status).toBe(200);
    return created.body.id as string;
  };
  const exportStatus = async (id: string) => (await api('GET', `/bulk-exports/${id}`)).body.status as string;

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: [BUCKET] });
    platform = await startTestPlatform({
      exportPartitionQueue: queue,
      exportEnv: { EXPORT_DISPATCH_INTERVAL: '100ms', EXPORT_RETRY_DELAY: '200ms' },
      // The platform's export worker: one process on a temp directory of its own; the test starts the others.
      startExportWorker: async (env) => {
        grpc = { tracing: env.TRACING_GRPC as string, export: env.EXPORT_GRPC as string };
        first = await startWorker(0, ownDir);
        return { name: 'export-worker', url: first.url, stop: () => stopWorkerProcesses(started) };
      },
    });
    tracingDb = await openTracingDatabase({ url: platform.databases.tracing.url, dataDir: 'memory://' });
    await insertProject(tracingDb.prisma, tenantId, sessionId);
    for (let day = 0; day < DAYS.length; day++) {
      await insertRuns(tracingDb.prisma, { tenantId, sessionId, count: RUNS_PER_DAY, firstUs: T0_US + BigInt(day) * DAY_US, stepUs: 5_000, perTimestamp: 3, payloadChars: 1_500 });
    }
    api = jsonApi(`${platform.services.export.url}/api/v1`, () => {
      const requestId = randomUUID();
      return { 'x-request-id': requestId, ...signIdentity(TEST_INTERNAL_SECRET, { tenantId, organizationId: randomUUID(), subject: 'staging-e2e' }, requestId) };
    });
    destinationId = await createS3Destination(api, 'staging', { bucket_name: BUCKET, prefix: 'staging', endpoint_url: s3.endpoint, region: 'us-east-1' });
  });

  afterAll(async () => {
    await platform?.stop();
    await tracingDb?.close();
    await deletePartitionQueue(queue);
    await s3?.close();
    rmSync(ownDir, { recursive: true, force: true });
    rmSync(sharedDir, { recursive: true, force: true });
  });

  const exportIds: string[] = [];

  it('SIGTERM in the middle of a partition: the worker hands the job back and exits leaving no staging folder', async () => {
    exportIds.push(await exportDay(DAYS[0]));
    // The only worker takes the partition; its staging folder has a Parquet file open.
    const [folder] = await waitFor('a Parquet file open in the worker’s staging folder', async () => stagingFolders(ownDir), (f) => f.some((s) => s.openFile), 60_000, 10);
    expect(folder.pid).toBe(first.pid);
    await first.kill('SIGTERM');
    expect(first.child.exitCode).toBe(0);
    // Gone at exit, not later: no other worker sweeps this directory.
    expect(stagingFolders(ownDir)).toEqual([]);
    expect(existsSync(folder.path)).toBe(false);
  });

  it('SIGKILL in the middle of a partition: a worker on the same temp directory removes the folder within its sweep interval', async () => {
    const t0 = Date.now();
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${Date.now() - t0} ms`);
    const workers = await Promise.all([startWorker(1, sharedDir), startWorker(2, sharedDir)]);
    phase('workers ready');
    exportIds.push(await exportDay(DAYS[1]));
    const open = await waitFor(
      'a Parquet file open in a staging folder of the shared temp directory',
      async () => stagingFolders(sharedDir).find((f) => f.openFile && workers.some((w) => w.pid === f.pid)),
      (f) => f !== undefined,
      60_000,
      10,
    );
    phase('file open');
    const victim = workers.find((w) => w.pid === open!.pid)!;
    const survivor = workers.find((w) => w !== victim)!;
    await victim.kill('SIGKILL');
    expect(victim.child.signalCode).toBe('SIGKILL');
    const killedAt = Date.now();

    // The survivor's sweep (every SWEEP_MS) removes the orphan; the bound leaves room for a loaded machine.
    await waitFor('the killed worker’s staging folder to be removed', async () => existsSync(open!.path), (exists) => !exists, 15_000, 50);
    const removedAfterMs = Date.now() - killedAt;
    phase('orphan removed');
    process.stdout.write(`staging folder of the SIGKILLed worker removed ${removedAfterMs} ms after the kill (sweep every ${SWEEP_MS} ms)\n`);
    expect(survivor.exited()).toBe(false);

    // The sweeps never took a live worker's folder: the survivor finishes every partition, the killed one's included.
    const statuses = await waitFor('the exports to finish', () => Promise.all(exportIds.map(exportStatus)), (s) => s.every((x) => x !== 'Running' && x !== 'Created'), 90_000, 200);
    phase('exports completed');
    process.stdout.write(`staging SIGKILL test phases: ${phases.join(', ')}\n`);
    expect(statuses).toEqual(exportIds.map(() => 'Completed'));
    expect(stagingFolders(sharedDir).every((f) => f.pid === survivor.pid)).toBe(true);
  }, 300_000);
});
