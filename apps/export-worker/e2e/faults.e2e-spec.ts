// Export faults across real processes: the platform of the shared test platform (tools/dev/test-platform.ts: the
// tracing and export services on Postgres databases of their own) with, instead of its in-process worker, three
// export-worker PROCESSES consuming one JetStream queue, and s3rver on loopback. A worker is SIGKILLed in the middle
// of a partition; 40 partitions of one workspace run under small concurrency limits.
import { randomUUID } from 'node:crypto';
import { openExportDatabase, type ExportDatabase } from '@platform/export-data-access';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { signIdentity } from '@platform/identity';
import { serviceUrl } from '@platform/testing';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { DAY_US, insertProject, insertRuns, T0_US } from '@platform/tracing-data-access/testing';
import { startTestPlatform, TEST_INTERNAL_SECRET, type TestPlatform } from '../../../tools/dev/test-platform';
import { createS3Destination, jsonApi, objectKeys, objectsDir, queryParquet, waitFor } from '../../export/e2e/export.e2e.testing';
import { deletePartitionQueue, startWorkerProcess, stopWorkerProcesses, uniquePartitionQueue, type WorkerProcess } from './worker-processes.e2e.testing';

const BUCKET = 'exports';
const PREFIX = 'faults';
const DAYS = ['2024-05-01', '2024-05-02', '2024-05-03'];
const RUNS_PER_DAY = 4_000;
const MAX_EXPORTS_PER_WORKSPACE = 2;
const MAX_RUNS_PER_EXPORT = 3;
const WORKERS = 3;

const runsRequired = Boolean(serviceUrl('DATABASE_URL', 'Postgres (export fault e2e)')) && Boolean(serviceUrl('NATS_URL', 'NATS JetStream (export fault e2e)'));
const describeWithServices = runsRequired ? describe : describe.skip;

interface RunRow {
  id: string;
  bulk_export_id: string;
  status: string;
  rows_written: string;
  errors: Record<string, string>;
  files: { key: string; rows: number }[];
  start_time: Date;
}

describeWithServices('bulk export faults with three export-worker processes', () => {
  const tenantId = randomUUID();
  const sessionId = randomUUID();
  const queue = uniquePartitionQueue('export-faults');
  let platform: TestPlatform;
  let tracingDb: TracingDatabase;
  let exportDb: ExportDatabase;
  /** The platform's gRPC addresses the workers call (TRACING_GRPC, EXPORT_GRPC). */
  let grpc: { tracing: string; export: string };
  let s3: TestS3Server;
  let workers: WorkerProcess[] = [];
  /** Every worker started, killed ones included, for the teardown (their temp directories). */
  const started: WorkerProcess[] = [];
  let destinationId: string;
  let api: ReturnType<typeof jsonApi>;

  const startWorker = async (index: number) => {
    const worker = await startWorkerProcess(index, {
      queue,
      natsUrl: process.env.NATS_URL as string,
      tracingGrpc: grpc.tracing,
      exportGrpc: grpc.export,
      internalSecret: TEST_INTERNAL_SECRET,
      env: {
        // Small files: a partition of 4,000 runs is ten files and takes a few seconds, with a checkpoint per file.
        EXPORT_WORKER_FILE_MAX_ROWS: '400',
        EXPORT_WORKER_STREAM_BATCH_SIZE: '200',
        // A killed worker's job comes back after 3 s without heartbeats.
        EXPORT_WORKER_ACK_WAIT: '3s',
        EXPORT_WORKER_RETRY_DELAY: '500ms',
        EXPORT_WORKER_DUCKDB_THREADS: '1',
        EXPORT_WORKER_DUCKDB_MEMORY: '256MB',
      },
    });
    started.push(worker);
    return worker;
  };

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: [BUCKET] });
    platform = await startTestPlatform({
      exportPartitionQueue: queue,
      exportEnv: {
        EXPORT_MAX_RUNNING_EXPORTS_PER_WORKSPACE: String(MAX_EXPORTS_PER_WORKSPACE),
        EXPORT_MAX_RUNNING_RUNS_PER_EXPORT: String(MAX_RUNS_PER_EXPORT),
        EXPORT_DISPATCH_INTERVAL: '100ms',
        EXPORT_RETRY_DELAY: '200ms',
      },
      // The platform's export worker is these processes: stopped with the platform, killed ones and the
      // replacement included.
      startExportWorker: async (env) => {
        grpc = { tracing: env.TRACING_GRPC as string, export: env.EXPORT_GRPC as string };
        workers = await Promise.all(Array.from({ length: WORKERS }, (_, i) => startWorker(i)));
        return { name: 'export-worker', url: workers[0].url, stop: () => stopWorkerProcesses(started) };
      },
    });
    tracingDb = await openTracingDatabase({ url: platform.databases.tracing.url, dataDir: 'memory://' });
    exportDb = await openExportDatabase({ url: platform.databases.export.url, dataDir: 'memory://' });
    await insertProject(tracingDb.prisma, tenantId, sessionId);
    // Realistic runs (1–2 KB inputs and outputs), three at each start time so ties exercise the cursor.
    for (let day = 0; day < DAYS.length; day++) {
      await insertRuns(tracingDb.prisma, { tenantId, sessionId, count: RUNS_PER_DAY, firstUs: T0_US + BigInt(day) * DAY_US, stepUs: 5_000, perTimestamp: 3, payloadChars: 1_500 });
    }

    api = jsonApi(`${platform.services.export.url}/api/v1`, () => {
      const requestId = randomUUID();
      return { 'x-request-id': requestId, ...signIdentity(TEST_INTERNAL_SECRET, { tenantId, organizationId: randomUUID(), subject: 'faults-e2e' }, requestId) };
    });
    destinationId = await createS3Destination(api, 'faults', { bucket_name: BUCKET, prefix: PREFIX, endpoint_url: s3.endpoint, region: 'us-east-1' });
  });

  afterAll(async () => {
    await platform?.stop();
    await tracingDb?.close();
    await exportDb?.close();
    await deletePartitionQueue(queue);
    await s3?.close();
  });

  const runsOf = (exportIds: string[]) =>
    exportDb.prisma.$queryRawUnsafe<RunRow[]>(
      `SELECT id::text, bulk_export_id::text, status, rows_written::text, errors, files, start_time
       FROM bulk_export_runs WHERE bulk_export_id = ANY($1::uuid[]) ORDER BY start_time`,
      exportIds,
    );
  const exportStatus = async (id: string) => (await api('GET', `/bulk-exports/${id}`)).body.status as string;
  const sourceIds = async (from: string, to: string) =>
    (
      await tracingDb.prisma.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id::text FROM runs WHERE tenant_id = $1::uuid AND session_id = $2::uuid AND start_time >= $3::timestamptz AND start_time < $4::timestamptz`,
        tenantId,
        sessionId,
        from,
        to,
      )
    ).map((r) => r.id);

  it('SIGKILL of a worker in the middle of a partition: the job is redelivered, resumes from its checkpoint, no row lost or duplicated', async () => {
    const created = await api('POST', '/bulk-exports', {
      bulk_export_destination_id: destinationId,
      session_id: sessionId,
      start_time: `${DAYS[0]}T00:00:00Z`,
      end_time: '2024-05-04T00:00:00Z',
      format_version: 'v2_beta',
      compression: 'snappy',
    });
    expect(created.status).toBe(200);
    const exportId: string = created.body.id;

    // Every worker is inside a partition once each of the three runs has recorded a file and none has finished
    // (one job per worker: concurrency 1). Kill one that has a file open at that moment.
    await waitFor('every partition to have a checkpoint', () => runsOf([exportId]), (runs) => runs.length === 3 && runs.every((r) => r.status === 'Running' && Number(r.rows_written) > 0), 60_000, 25);
    const victim = await waitFor('a worker with an open Parquet file', async () => workers.find((w) => w.hasOpenFile()), (w) => w !== undefined, 10_000, 10);
    const before = await runsOf([exportId]);
    expect(before.every((r) => r.status === 'Running')).toBe(true);
    await victim!.kill('SIGKILL');
    expect(victim!.child.signalCode).toBe('SIGKILL');
    // A replacement joins, as an orchestrator would start one; the limits test below needs three workers again.
    workers = [...workers.filter((w) => w !== victim), await startWorker(WORKERS)];

    const status = await waitFor('the export to finish', () => exportStatus(exportId), (s) => s !== 'Running' && s !== 'Created', 90_000, 200);
    expect(status).toBe('Completed');
    const runs = await runsOf([exportId]);
    // Exactly the killed worker's run went through a second attempt, recorded as retry_0, resumed after its checkpoint.
    const resumed = runs.filter((r) => Object.keys(r.errors).length > 0);
    expect(resumed).toHaveLength(1);
    expect(resumed[0].errors).toEqual({ retry_0: expect.stringMatching(/interrupted/) });
    const atKill = before.find((r) => r.id === resumed[0].id)!;
    expect(Number(atKill.rows_written)).toBeGreaterThan(0);
    expect(atKill.files.every((f) => resumed[0].files.some((g) => g.key === f.key))).toBe(true);
    expect(runs.map((r) => Number(r.rows_written))).toEqual([RUNS_PER_DAY, RUNS_PER_DAY, RUNS_PER_DAY]);

    // Read back: exactly the source rows, each once; the bucket holds only recorded files.
    const dir = objectsDir(s3.directory, BUCKET, `${PREFIX}/export_id=${exportId}`);
    const [counts] = await queryParquet(dir, 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM {files}');
    expect(counts).toEqual({ n: RUNS_PER_DAY * 3, ids: RUNS_PER_DAY * 3 });
    const exported = (await queryParquet(dir, 'SELECT id FROM {files}')).map((r) => r.id as string).sort();
    expect(exported).toEqual((await sourceIds('2024-05-01T00:00:00Z', '2024-05-04T00:00:00Z')).sort());
    const recorded = runs.flatMap((r) => r.files.map((f) => f.key.slice(`${PREFIX}/export_id=${exportId}/`.length))).sort();
    expect(objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${exportId}`)).toEqual(recorded);
  });

  it(`holds ${MAX_EXPORTS_PER_WORKSPACE} exports per workspace and ${MAX_RUNS_PER_EXPORT} runs per export with ${WORKERS} workers and 40 queued partitions`, async () => {
    // 5 exports × 8 days = 40 partitions of small runs in the one workspace.
    const limitsSession = randomUUID();
    await insertProject(tracingDb.prisma, tenantId, limitsSession);
    for (let day = 0; day < 8; day++) {
      await insertRuns(tracingDb.prisma, { tenantId, sessionId: limitsSession, count: 60, firstUs: T0_US + BigInt(day) * DAY_US + 3_600_000_000n, stepUs: 1_000_000 });
    }
    const exportIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await api('POST', '/bulk-exports', {
        bulk_export_destination_id: destinationId,
        session_id: limitsSession,
        start_time: '2024-05-01T00:00:00Z',
        end_time: '2024-05-09T00:00:00Z',
        format_version: 'v2_beta',
        export_fields: ['id', 'name', 'start_time', 'total_tokens'],
      });
      expect(created.status).toBe(200);
      exportIds.push(created.body.id);
    }

    // Sample the export service's database continuously until every export is final.
    const peaks = { exports: 0, runsPerExport: 0, attempts: 0, waitingExports: 0, samples: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await exportDb.prisma.$queryRawUnsafe<{ running: number; created: number; per_export: number; attempts: number }[]>(
          `SELECT (SELECT count(*)::int FROM bulk_exports WHERE tenant_id = $1::uuid AND status = 'Running') AS running,
                  (SELECT count(*)::int FROM bulk_exports WHERE id = ANY($2::uuid[]) AND status = 'Created') AS created,
                  (SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) AS n FROM bulk_export_runs
                     WHERE bulk_export_id = ANY($2::uuid[]) AND status = 'Running' GROUP BY bulk_export_id) AS r) AS per_export,
                  (SELECT count(*)::int FROM bulk_export_runs WHERE tenant_id = $1::uuid AND status = 'Running' AND attempt_started_at IS NOT NULL) AS attempts`,
          tenantId,
          exportIds,
        );
        peaks.exports = Math.max(peaks.exports, row.running);
        peaks.waitingExports = Math.max(peaks.waitingExports, row.created);
        peaks.runsPerExport = Math.max(peaks.runsPerExport, row.per_export);
        peaks.attempts = Math.max(peaks.attempts, row.attempts);
        peaks.samples++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      await waitFor(
        'all 40 partitions to be exported',
        () => Promise.all(exportIds.map(exportStatus)),
        (statuses) => statuses.every((s) => s !== 'Created' && s !== 'Running'),
        90_000,
        250,
      );
    } finally {
      sampling = false;
      await sampler;
    }
    expect(await Promise.all(exportIds.map(exportStatus))).toEqual(exportIds.map(() => 'Completed'));
    // The limits were reached (queued work waited) and never exceeded; at most one partition per worker at a time.
    expect(peaks.samples).toBeGreaterThan(20);
    expect(peaks.exports).toBe(MAX_EXPORTS_PER_WORKSPACE);
    expect(peaks.waitingExports).toBeGreaterThan(0);
    expect(peaks.runsPerExport).toBe(MAX_RUNS_PER_EXPORT);
    expect(peaks.attempts).toBeLessThanOrEqual(WORKERS);
    expect(peaks.attempts).toBeGreaterThan(0);

    const runs = await runsOf(exportIds);
    expect(runs).toHaveLength(40);
    expect(runs.every((r) => r.status === 'Completed' && Number(r.rows_written) === 60)).toBe(true);
    for (const id of exportIds) {
      const [read] = await queryParquet(
        objectsDir(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`),
        'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids, count(DISTINCT day)::INTEGER AS days FROM {files}',
      );
      expect(read).toEqual({ n: 480, ids: 480, days: 8 });
    }
  });
});
