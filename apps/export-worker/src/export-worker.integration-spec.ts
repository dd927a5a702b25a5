// The export worker with real parts: the tracing service (its StreamRuns over gRPC) on a test database, s3rver behind
// a fault-injecting proxy, the job bus (JetStream when NATS_URL is set, else in process), and an ExportProgress
// server recording what the worker reports (the export service's own server joins in the cross-service e2e).
import { randomBytes, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportPartitionQueue, type RunSpec } from '@platform/contracts';
import { startS3FaultProxy, startTestS3Server, TEST_EGRESS_ENV, TEST_S3_CREDENTIALS, type S3FaultProxy, type TestS3Server } from '@platform/export-s3/testing';
import type { RunningService } from '@platform/http-server';
import { createJobBus, defineQueue, type JetStreamJobBus, type JobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
// Tracing's database and its data fixtures, to fill it with runs to read (the service itself: test-services).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { openTracingDatabase } from '@platform/tracing-data-access';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DAY_US, insertProject, insertRuns, T0_US } from '@platform/tracing-data-access/testing';
import { loadExportWorkerConfig } from './config';
import { startRecordingExportProgress, type RecordedRun, type RecordingExportProgress } from './recording-export-progress.testing';
import { startExportWorker } from './service';
// Another service is started through the platform's test starters (tools/dev), never from its app's source.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startTestTracing } from '../../../tools/dev/test-services';

const SECRET = 'export-worker-integration-secret';
const RUNS = 3_000;
const tenantId = randomUUID();
const sessionId = randomUUID();

async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('export worker: StreamRuns → Parquet → S3 multipart → progress', () => {
  let testDb: TestDatabase;
  let tracing: RunningService;
  /** Run 1234 of the window as tracing stores it (read before tracing starts: an embedded database has one owner). */
  let stored: { id: string; inputs: string; tags: string[]; start_us: string };
  let s3: TestS3Server;
  let proxy: S3FaultProxy;
  let progress: RecordingExportProgress;
  let bus: JobBus;
  let worker: RunningService | undefined;
  let tmp: string;
  let ids: string[];
  const queue = defineQueue({ name: `export-partitions-${randomBytes(4).toString('hex')}`, subject: `test.export.partitions.${randomBytes(4).toString('hex')}`, schema: exportPartitionQueue.schema });

  const startWorker = (env: Record<string, string> = {}) =>
    startExportWorker(
      loadExportWorkerConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        INTERNAL_SECRET: SECRET,
        TRACING_GRPC: `127.0.0.1:${tracing.grpcPort}`,
        EXPORT_GRPC: progress.address,
        EXPORT_WORKER_FILE_MAX_ROWS: '1000',
        EXPORT_WORKER_RETRY_DELAY: '200ms',
        EXPORT_WORKER_ACK_WAIT: '10s',
        EXPORT_WORKER_TMP_DIR: tmp,
        EXPORT_WORKER_DUCKDB_THREADS: '2',
        EXPORT_WORKER_DUCKDB_MEMORY: '256MB',
        EXPORT_WORKER_STREAM_BATCH_SIZE: '250',
        ...TEST_EGRESS_ENV,
        ...env,
      }),
      silentLogger,
      { bus, queue },
    );

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'export-worker-it-'));
    testDb = await createTestDatabase();
    // Without Postgres, tracing's embedded database lives in a folder: filled here, then handed to the service.
    const tracingData = testDb.url ? 'memory://' : join(tmp, 'data');
    const db = await openTracingDatabase({ url: testDb.url, dataDir: testDb.url ? 'memory://' : join(tracingData, 'tracing') });
    await db.migrate();
    await insertProject(db.prisma, tenantId, sessionId);
    // 3 runs per start time (ties broken by id), 1–2 KB of inputs and outputs each, plus runs outside the window.
    await insertRuns(db.prisma, { tenantId, sessionId, count: RUNS, perTimestamp: 3, stepUs: 10_000, payloadChars: 600 });
    await insertRuns(db.prisma, { tenantId, sessionId, count: 5, firstUs: T0_US - 5n, stepUs: 1 });
    await insertRuns(db.prisma, { tenantId, sessionId, count: 5, firstUs: T0_US + DAY_US, stepUs: 1 });
    const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text AS id FROM runs WHERE session_id = $1::uuid AND start_time >= $2::timestamptz AND start_time < $3::timestamptz ORDER BY start_time, id`,
      sessionId,
      '2024-05-01T00:00:00Z',
      '2024-05-02T00:00:00Z',
    );
    ids = rows.map((r) => r.id);
    [stored] = await db.prisma.$queryRawUnsafe<(typeof stored)[]>(
      `SELECT id::text AS id, inputs::text AS inputs, tags, ((extract(epoch FROM start_time) * 1000000)::bigint)::text AS start_us FROM runs WHERE id = $1::uuid`,
      ids[1_234],
    );
    await db.close();
    tracing = await startTestTracing({ databaseUrl: testDb.url, dataDir: tracingData, internalSecret: SECRET });
    s3 = await startTestS3Server({ buckets: ['exports'] });
    proxy = await startS3FaultProxy(s3.endpoint);
    progress = await startRecordingExportProgress(SECRET);
    bus = await createJobBus({ natsUrl: process.env.NATS_URL, logger: silentLogger });
    worker = await startWorker();
  });

  afterEach(() => {
    proxy.setRule(undefined);
    proxy.requests.length = 0;
  });

  afterAll(async () => {
    await worker?.stop();
    if (bus?.kind === 'jetstream') await (bus as JetStreamJobBus).deleteQueue(queue);
    await bus?.close();
    await progress?.close();
    await proxy?.close();
    await s3?.close();
    await tracing?.stop();
    await testDb?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  function spec(overrides: Partial<RunSpec> = {}, destination: Partial<NonNullable<RunSpec['destination']>> = {}): RunSpec {
    return {
      tenant_id: tenantId,
      session_id: sessionId,
      start_time: T0_US.toString(),
      end_time: (T0_US + DAY_US).toString(),
      filter: '',
      fields: [],
      format_version: 'v2_beta',
      compression: 'zstandard',
      destination: {
        bucket_name: 'exports',
        prefix: 'lake/traces',
        region: 'us-east-1',
        endpoint_url: proxy.endpoint,
        include_bucket_in_prefix: false,
        addressing_style: 'path',
        access_key_id: TEST_S3_CREDENTIALS.access_key_id,
        secret_access_key: TEST_S3_CREDENTIALS.secret_access_key,
        session_token: '',
        ...destination,
      },
      ...overrides,
    };
  }

  it('removes, when it starts, the staging folder of a worker that died without cleaning up, and only that one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-worker-staging-'));
    try {
      const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
      const stale = join(dir, 'export-parquet-dead');
      const alive = join(dir, 'export-parquet-alive');
      for (const [folder, pid] of [[stale, deadPid], [alive, process.pid]] as const) {
        mkdirSync(join(folder, 'file-1'), { recursive: true });
        writeFileSync(join(folder, 'file-1', 'rows.ndjson'), '{}\n');
        writeFileSync(join(folder, 'owner.json'), JSON.stringify({ host: hostname(), pid }));
      }
      const second = await startWorker({ EXPORT_WORKER_TMP_DIR: dir });
      await second.stop();
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(alive)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Publishes a partition job for a new run and waits until the run is done, failed, or stopped reporting. */
  async function exportRun(runSpec: RunSpec, overrides: Partial<RecordedRun> = {}, until?: (run: RecordedRun) => boolean) {
    const exportId = randomUUID();
    const runId = randomUUID();
    const run = progress.addRun(runId, runSpec, overrides);
    await bus.publish(queue, { export_id: exportId, run_id: runId, tenant_id: tenantId });
    await waitFor('the run to finish', until ? () => until(run) : () => run.done || run.failures.length > 0);
    return { exportId, runId, run };
  }

  /** Rows of an export as a reader sees them: every object under the export's folder, Hive partitions included. */
  async function readExport(exportId: string, columns: string): Promise<Record<string, unknown>[]> {
    const duck = await DuckDBInstance.create(':memory:');
    const connection = await duck.connect();
    try {
      await connection.run(`SET TimeZone = 'UTC'`);
      const glob = `${s3.directory}/exports/lake/traces/export_id=${exportId}/**/*._S3rver_object`;
      const reader = await connection.runAndReadAll(`SELECT ${columns} FROM read_parquet('${glob}', hive_partitioning = true)`);
      return reader.getRowObjectsJson() as Record<string, unknown>[];
    } finally {
      connection.closeSync();
      duck.closeSync();
    }
  }

  async function describeExport(exportId: string): Promise<Record<string, string>> {
    const duck = await DuckDBInstance.create(':memory:');
    const connection = await duck.connect();
    try {
      const glob = `${s3.directory}/exports/lake/traces/export_id=${exportId}/**/*._S3rver_object`;
      const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${glob}', hive_partitioning = true)`);
      return Object.fromEntries(reader.getRowObjectsJson().map((r) => [r.column_name as string, r.column_type as string]));
    } finally {
      connection.closeSync();
      duck.closeSync();
    }
  }

  const fileKey = (exportId: string, runId: string, n: number) =>
    `lake/traces/export_id=${exportId}/tenant_id=${tenantId}/session_id=${sessionId}/runs/year=2024/month=05/day=01/${runId}-${String(n).padStart(5, '0')}.parquet`;

  it('exports a partition into rolled Hive-partitioned files, one multipart upload and a size check each, reporting after every file', async () => {
    const { exportId, runId, run } = await exportRun(spec());
    expect(run.failures).toEqual([]);
    expect(run.reports.map((r) => [r.files.map((f) => [f.key, f.rows]), r.rows_written, r.done])).toEqual([
      [[[fileKey(exportId, runId, 0), '1000']], '1000', false],
      [[[fileKey(exportId, runId, 1), '1000']], '2000', false],
      [[[fileKey(exportId, runId, 2), '1000']], '3000', false],
      [[], '3000', true],
    ]);
    // The cursor recorded with each file is its last run.
    expect(run.reports.map((r) => r.cursor?.id)).toEqual([ids[999], ids[1_999], ids[2_999], ids[2_999]]);
    const perFile = ['CreateMultipartUpload', 'UploadPart', 'CompleteMultipartUpload', 'HeadObject'];
    expect(proxy.requests.map((r) => r.operation)).toEqual([...perFile, ...perFile, ...perFile]);

    const rows = await readExport(exportId, 'id, export_id, tenant_id, session_id, year, month, day');
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(new Set(rows.map((r) => `${r.export_id}/${r.tenant_id}/${r.session_id}/${r.year}-${r.month}-${r.day}`))).toEqual(
      new Set([`${exportId}/${tenantId}/${sessionId}/2024-05-01`]),
    );
    const types = await describeExport(exportId);
    expect(types).toMatchObject({
      id: 'VARCHAR',
      parent_run_ids: 'VARCHAR[]',
      start_time: 'TIMESTAMP WITH TIME ZONE',
      end_time: 'TIMESTAMP WITH TIME ZONE',
      is_root: 'BOOLEAN',
      inputs: 'VARCHAR',
      tags: 'VARCHAR[]',
      total_tokens: 'BIGINT',
      total_cost: 'DECIMAL(20,10)',
    });
    // Values as tracing stores them.
    const [exported] = await readExport(exportId, `id, inputs, tags, epoch_us(start_time)::VARCHAR AS start_us`).then((all) => all.filter((r) => r.id === ids[1_234]));
    expect(JSON.parse(exported.inputs as string)).toEqual(JSON.parse(stored.inputs));
    expect(exported.tags).toEqual(stored.tags);
    expect(exported.start_us).toBe(stored.start_us);
    expect(readdirSync(tmp, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ndjson|parquet)$/.test(f))).toEqual([]);
  });

  it('exports only the requested fields of the filtered runs, in v1 with GZIP', async () => {
    const fields = ['id', 'name', 'run_type', 'start_time', 'tags', 'total_tokens'];
    const { exportId, run } = await exportRun(spec({ fields, filter: 'eq(run_type, "llm")', format_version: 'v1', compression: 'gzip' }));
    expect(run.failures).toEqual([]);
    const rows = await readExport(exportId, 'id, run_type');
    expect(rows.length).toBe(RUNS / 3);
    expect(new Set(rows.map((r) => r.run_type))).toEqual(new Set(['llm']));
    const types = await describeExport(exportId);
    expect(Object.keys(types).slice(0, fields.length)).toEqual(fields);
    expect(types.start_time).toBe('TIMESTAMP_NS');
    expect(proxy.requests.filter((r) => r.operation === 'CompleteMultipartUpload')).toHaveLength(1);
  });

  it('stops at the file boundary when the export is cancelled', async () => {
    const { exportId, run } = await exportRun(spec(), { continueAfter: (n) => n < 1 }, (r) => r.reports.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(run.reports).toHaveLength(1);
    expect(run.done).toBe(false);
    expect(run.checkpointCalls).toBe(1); // acked, not redelivered
    expect(proxy.requests.filter((r) => r.operation === 'CompleteMultipartUpload')).toHaveLength(1);
    expect(await readExport(exportId, 'count(*)::INTEGER AS n')).toEqual([{ n: 1_000 }]);
  });

  it('reports a missing bucket as a failure that is not retried', async () => {
    const { run } = await exportRun(spec({}, { bucket_name: 'no-such-bucket' }));
    expect(run.failures).toEqual([
      expect.objectContaining({ attempt: 0, retryable: false, error: expect.stringMatching(/^Bucket is not valid: CreateMultipartUpload failed with NoSuchBucket/) }),
    ]);
    expect(run.reports).toEqual([]);
  });

  it("refuses a destination without credentials (the platform's own) for a workspace the operator did not allow, connecting nowhere", async () => {
    proxy.requests.length = 0;
    const { run } = await exportRun(spec({}, { access_key_id: '', secret_access_key: '' }));
    expect(run.failures).toEqual([
      expect.objectContaining({ attempt: 0, retryable: false, error: expect.stringMatching(/^Access denied: credentials are required: this workspace may not use the platform's own credentials/) }),
    ]);
    expect(proxy.requests).toEqual([]);
  });

  it('aborts the multipart upload when a part is denied, and fails without retry', async () => {
    let parts = 0;
    proxy.setRule((r) => (r.operation === 'UploadPart' && ++parts === 2 ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const { run } = await exportRun(spec());
    expect(run.failures).toEqual([expect.objectContaining({ retryable: false, error: expect.stringMatching(/^Access denied: UploadPart failed with AccessDenied/) })]);
    expect(run.reports).toHaveLength(1);
    const ops = proxy.requests.map((r) => r.operation);
    expect(ops.filter((o) => o === 'AbortMultipartUpload')).toHaveLength(1);
    expect(ops.filter((o) => o === 'CompleteMultipartUpload')).toHaveLength(1);
  });

  it('completes without size checks when the destination denies reads', async () => {
    proxy.setRule((r) => (r.operation === 'HeadObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const { exportId, run } = await exportRun(spec());
    expect(run.failures).toEqual([]);
    expect(run.done).toBe(true);
    expect((await readExport(exportId, 'id')).length).toBe(RUNS);
  });

  it('after a crash between an upload and its report, the redelivered job resumes from the checkpoint: no row lost or twice', async () => {
    // The report of file 1 never gets through (every retry fails): the object is in the bucket, unrecorded.
    let failed = 0;
    const { exportId, runId, run } = await exportRun(spec(), {
      unavailable: (r) => {
        if (failed === 4 || !r.files.some((f) => f.key.endsWith('-00001.parquet'))) return false;
        failed++;
        return true;
      },
    });
    expect(run.failures).toEqual([]);
    expect(failed).toBe(4);
    expect(run.checkpointCalls).toBe(2);
    expect(run.files.map((f) => f.key)).toEqual([0, 1, 2].map((n) => fileKey(exportId, runId, n)));
    expect(run.rowsWritten).toBe('3000');
    const rows = await readExport(exportId, 'id');
    expect(rows.map((r) => r.id)).toEqual(ids);
  });

  it('hands its job back on shutdown; another worker resumes it from the checkpoint', async () => {
    const { exportId, run } = await exportRun(spec(), {}, (r) => r.reports.length >= 1);
    await worker?.stop();
    const stoppedAt = run.reports.length;
    worker = await startWorker();
    await waitFor('the resumed run', () => run.done);
    expect(run.checkpointCalls).toBe(2);
    expect(stoppedAt).toBeLessThan(run.reports.length);
    expect(run.rowsWritten).toBe('3000');
    const rows = await readExport(exportId, 'id');
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(RUNS);
  });
});
