// The bulk export pipeline end to end, every service in-process on Postgres and NATS JetStream: runs go in through
// the tracing API with the langsmith SDK (or the tracing fixtures, for volume), exports are driven through the
// gateway over HTTP, the export worker writes Parquet to s3rver on loopback, and DuckDB reads the files back with
// Hive partitioning, as a data lake would.
import { randomUUID } from 'node:crypto';
import { Client } from 'langsmith';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { MAX_JSON_DEPTH } from '@platform/http-server';
import { serviceUrl } from '@platform/testing';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { DAY_US, insertProject, insertRuns, T0_US } from '@platform/tracing-data-access/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { deletePartitionQueue, uniquePartitionQueue } from '../../export-worker/e2e/worker-processes.e2e.testing';
import { createS3Destination, jsonApi, objectKeys, objectsDir, parquetColumnTypes, queryParquet, sendTraces, waitFor, type SentRun } from './export.e2e.testing';

const BUCKET = 'lake';
const PREFIX = 'traces/raw';
const DAYS = ['2024-05-01', '2024-05-02', '2024-05-03'];
const TRACES_PER_DAY = 10;
const FINAL = ['Completed', 'Failed', 'Cancelled', 'TimedOut'];

const servicesPresent = Boolean(serviceUrl('DATABASE_URL', 'Postgres (bulk export pipeline e2e)')) && Boolean(serviceUrl('NATS_URL', 'NATS JetStream (bulk export pipeline e2e)'));
const describeWithServices = servicesPresent ? describe : describe.skip;

describeWithServices('bulk export pipeline: SDK ingest → export service → JetStream → worker → S3 → DuckDB', () => {
  const queue = uniquePartitionQueue('export-pipeline');
  let platform: TestPlatform;
  let s3: TestS3Server;
  let tracingDb: TracingDatabase;
  let api: ReturnType<typeof jsonApi>;
  let client: Client;
  let destinationId: string;
  let project: { id: string; name: string };
  let sent: SentRun[];

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: [BUCKET] });
    platform = await startTestPlatform({
      exportPartitionQueue: queue,
      exportEnv: {
        EXPORT_DISPATCH_INTERVAL: '100ms',
        EXPORT_RETRY_DELAY: '300ms',
        EXPORT_SCHEDULE_INTERVAL: '250ms',
        EXPORT_SCHEDULE_SPAWN_DELAY: '3s',
      },
      exportWorkerEnv: {
        EXPORT_WORKER_FILE_MAX_ROWS: '500',
        EXPORT_WORKER_STREAM_BATCH_SIZE: '250',
        EXPORT_WORKER_DUCKDB_THREADS: '1',
        EXPORT_WORKER_DUCKDB_MEMORY: '256MB',
      },
    });
    tracingDb = await openTracingDatabase({ url: platform.databases.tracing.url, dataDir: 'memory://' });
    api = jsonApi(`${platform.gatewayUrl}/api/v1`, () => ({ 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId }));
    client = new Client({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: platform.adminKey, workspaceId: platform.workspaceId });

    // Ten traces of three runs per day over three days, the first exactly at midnight, plus one trace just
    // before the window and one exactly at its (exclusive) end.
    const name = `pipeline-${randomUUID().slice(0, 8)}`;
    const starts = DAYS.flatMap((day) => Array.from({ length: TRACES_PER_DAY }, (_, i) => Date.parse(`${day}T00:00:00Z`) + i * 2 * 3_600_000 + (i ? 17_250 : 0)));
    sent = await sendTraces(client, name, [...starts, Date.parse('2024-04-30T23:59:58Z'), Date.parse('2024-05-04T00:00:00Z')]);
    const [found] = (await api('GET', `/sessions?name=${name}`)).body;
    project = { id: found.id, name };
    await waitFor('the runs to be stored', () => sourceIds(project.id, '2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z'), (ids) => ids.length === sent.length);

    const config = { bucket_name: BUCKET, prefix: PREFIX, endpoint_url: s3.endpoint, region: 'us-east-1', config_kwargs_s3: { addressing_style: 'path' } };
    destinationId = await createS3Destination(api, 'lake', config);
  });

  afterAll(async () => {
    await tracingDb?.close();
    await platform?.stop();
    await deletePartitionQueue(queue);
    await s3?.close();
  });

  async function sourceIds(sessionId: string, from: string, to: string): Promise<string[]> {
    const rows = await tracingDb.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM runs WHERE session_id = $1::uuid AND start_time >= $2::timestamptz AND start_time < $3::timestamptz ORDER BY id`,
      sessionId,
      from,
      to,
    );
    return rows.map((r) => r.id);
  }

  const createExport = async (body: Record<string, unknown>) => {
    const created = await api('POST', '/bulk-exports', { bulk_export_destination_id: destinationId, session_id: project.id, ...body });
    expect(created.status).toBe(200);
    return created.body as { id: string; status: string };
  };
  const finished = (id: string, timeoutMs = 40_000) =>
    waitFor(`export ${id} to finish`, async () => (await api('GET', `/bulk-exports/${id}`)).body, (e) => FINAL.includes(e.status), timeoutMs, 150);
  const runsOf = async (id: string) => (await api('GET', `/bulk-exports/${id}/runs`)).body as Array<{ id: string; status: string; errors: Record<string, string>; start_time: string; metadata: { result: { rows_written: number; exported_files: string[] } } }>;
  const exportDir = (id: string) => objectsDir(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`);
  const inWindow = (from: string, to: string) => sent.filter((r) => r.start_time >= Date.parse(from) && r.start_time < Date.parse(to));

  it('exports three days in v2_beta into Hive folders; DuckDB reads back exactly the source rows with their types and values', async () => {
    const exp = await createExport({ start_time: '2024-05-01T00:00:00Z', end_time: '2024-05-04T00:00:00Z', format_version: 'v2_beta', compression: 'zstandard' });
    expect(exp.status).toBe('Created');
    expect((await finished(exp.id)).status).toBe('Completed');

    const expected = inWindow('2024-05-01T00:00:00Z', '2024-05-04T00:00:00Z');
    expect(expected).toHaveLength(DAYS.length * TRACES_PER_DAY * 3);
    const runs = await runsOf(exp.id);
    expect(runs.map((r) => [r.start_time, r.status, r.errors, r.metadata.result.rows_written])).toEqual(
      DAYS.map((day) => [`${day}T00:00:00.000Z`, 'Completed', {}, TRACES_PER_DAY * 3]),
    );

    // The source: what the tracing service stored for the window, and what the test sent, are the same ids.
    const source = await sourceIds(project.id, '2024-05-01T00:00:00Z', '2024-05-04T00:00:00Z');
    expect(source).toEqual(expected.map((r) => r.id).sort());
    const [counts] = await queryParquet(exportDir(exp.id), 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM {files}');
    expect(counts).toEqual({ n: expected.length, ids: expected.length });
    const rows = await queryParquet(
      exportDir(exp.id),
      `SELECT id, trace_id, parent_run_id, parent_run_ids, name, run_type, epoch_ms(start_time) AS start_ms, status, is_root, error, tags,
              inputs, outputs, total_tokens, tenant_id, session_id, export_id, year, month, day, strftime(start_time, '%Y-%m-%d') AS start_day
       FROM {files} ORDER BY id`,
    );
    expect(rows.map((r) => r.id)).toEqual(source);
    const byId = new Map(expected.map((r) => [r.id, r]));
    for (const row of rows) {
      const run = byId.get(row.id as string)!;
      expect(row).toMatchObject({
        trace_id: run.trace_id,
        parent_run_id: run.parent_run_id,
        parent_run_ids: run.parent_run_id ? [run.parent_run_id] : [],
        name: run.name,
        run_type: run.run_type,
        start_ms: String(run.start_time),
        status: run.error ? 'error' : 'success',
        is_root: run.parent_run_id === null,
        error: run.error,
        tags: run.tags,
        tenant_id: platform.workspaceId,
        session_id: project.id,
        export_id: exp.id,
      });
      expect(JSON.parse(row.inputs as string)).toEqual(run.inputs);
      expect(row.outputs === null ? null : JSON.parse(row.outputs as string)).toEqual(run.outputs);
      if (run.run_type === 'llm') expect(row.total_tokens).toBe(String(run.total_tokens));
      // The Hive partition of each row is the UTC day of its start time.
      expect(`${row.year}-${String(row.month).padStart(2, '0')}-${String(row.day).padStart(2, '0')}`).toBe(row.start_day);
    }

    expect(await parquetColumnTypes(exportDir(exp.id))).toMatchObject({
      id: 'VARCHAR',
      parent_run_ids: 'VARCHAR[]',
      start_time: 'TIMESTAMP WITH TIME ZONE',
      end_time: 'TIMESTAMP WITH TIME ZONE',
      first_token_time: 'TIMESTAMP WITH TIME ZONE',
      is_root: 'BOOLEAN',
      inputs: 'VARCHAR',
      extra: 'VARCHAR',
      tags: 'VARCHAR[]',
      total_tokens: 'BIGINT',
      total_cost: expect.stringMatching(/^DECIMAL/),
    });
    // One file per day, under <prefix>/export_id=/tenant_id=/session_id=/runs/year=/month=/day=, named by its run.
    const keys = objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${exp.id}`);
    expect(keys).toEqual(
      runs.map((r, i) => `tenant_id=${platform.workspaceId}/session_id=${project.id}/runs/year=2024/month=05/day=0${i + 1}/${r.id}-00000.parquet`),
    );
    expect(runs.flatMap((r) => r.metadata.result.exported_files)).toEqual(keys.map((k) => `${PREFIX}/export_id=${exp.id}/${k}`));
  });

  it('exports runs whose JSON nests up to MAX_JSON_DEPTH exactly as they were sent (ingest → store → export)', async () => {
    const name = `deep-${randomUUID().slice(0, 8)}`;
    // The run's body nests MAX_JSON_DEPTH and one level less: its inputs one level less than the body.
    const nested = (depth: number) => `{"v":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
    const runs = [MAX_JSON_DEPTH, MAX_JSON_DEPTH - 1].map((depth, i) => ({ id: randomUUID(), inputs: nested(depth - 1), hour: `0${i}` }));
    for (const run of runs) {
      const body = `{"id":"${run.id}","name":"deep","run_type":"chain","session_name":"${name}","start_time":"2024-06-01T${run.hour}:00:00Z","end_time":"2024-06-01T${run.hour}:00:01Z","inputs":${run.inputs}}`;
      const sentRun = await fetch(`${platform.gatewayUrl}/api/v1/runs`, { method: 'POST', headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': 'application/json' }, body });
      expect(sentRun.status).toBe(202);
    }
    const [deep] = (await api('GET', `/sessions?name=${name}`)).body;
    await waitFor('the deep runs to be stored', () => sourceIds(deep.id, '2024-06-01T00:00:00Z', '2024-06-02T00:00:00Z'), (ids) => ids.length === runs.length);
    const created = await api('POST', '/bulk-exports', { bulk_export_destination_id: destinationId, session_id: deep.id, start_time: '2024-06-01T00:00:00Z', end_time: '2024-06-02T00:00:00Z' });
    expect(created.status).toBe(200);
    expect((await finished(created.body.id)).status).toBe('Completed');
    const rows = await queryParquet(exportDir(created.body.id), 'SELECT id, inputs FROM {files} ORDER BY id');
    const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s/g, '');
    expect(rows.map((r) => [r.id, text(r.inputs)])).toEqual([...runs].sort((a, b) => a.id.localeCompare(b.id)).map((r) => [r.id, r.inputs]));
  });

  it('exports only the filtered runs and the requested fields (v1, gzip)', async () => {
    const fields = ['id', 'name', 'run_type', 'start_time', 'total_tokens', 'tags'];
    const exp = await createExport({
      start_time: '2024-05-01T00:00:00Z',
      end_time: '2024-05-04T00:00:00Z',
      filter: 'and(eq(run_type, "llm"), gt(total_tokens, 100))',
      export_fields: fields,
    });
    expect((await finished(exp.id)).status).toBe('Completed');
    const llm = inWindow('2024-05-01T00:00:00Z', '2024-05-04T00:00:00Z').filter((r) => r.run_type === 'llm');
    const rows = await queryParquet(exportDir(exp.id), 'SELECT id, name, run_type, total_tokens, tags FROM {files} ORDER BY id');
    expect(rows).toEqual(llm.map((r) => ({ id: r.id, name: 'chat-model', run_type: 'llm', total_tokens: '370', tags: [] })).sort((a, b) => a.id.localeCompare(b.id)));
    const types = await parquetColumnTypes(exportDir(exp.id));
    // Only the requested fields, in the exportable fields' column order; then DuckDB's Hive partition columns.
    expect(Object.keys(types).slice(0, fields.length)).toEqual(['id', 'name', 'run_type', 'start_time', 'tags', 'total_tokens']);
    expect(Object.keys(types).slice(fields.length).sort()).toEqual(['day', 'export_id', 'month', 'session_id', 'tenant_id', 'year']);
    // v1 keeps the legacy timestamp type (nanoseconds, not UTC-adjusted).
    expect(types.start_time).toBe('TIMESTAMP_NS');
  });

  it('cancels an export in the middle of a partition: it stops at a file boundary and the other partitions never start', async () => {
    // Volume from the tracing fixtures: four days of 3,000 realistic runs (1–2 KB inputs and outputs).
    const sessionId = randomUUID();
    await insertProject(tracingDb.prisma, platform.workspaceId, sessionId);
    for (let day = 0; day < 4; day++) {
      await insertRuns(tracingDb.prisma, { tenantId: platform.workspaceId, sessionId, count: 3_000, firstUs: T0_US + BigInt(day) * DAY_US, stepUs: 10_000, payloadChars: 1_500 });
    }
    const created = await api('POST', '/bulk-exports', {
      bulk_export_destination_id: destinationId,
      session_id: sessionId,
      start_time: '2024-05-01T00:00:00Z',
      end_time: '2024-05-05T00:00:00Z',
      format_version: 'v2_beta',
    });
    expect(created.status).toBe(200);
    const id: string = created.body.id;
    // The first partition has written a file (500 rows) and is going on.
    await waitFor('the first file of the export', () => runsOf(id), (runs) => runs.some((r) => r.status === 'Running' && r.metadata.result.rows_written > 0), 40_000, 30);
    const cancelled = await api('PATCH', `/bulk-exports/${id}`, { status: 'Cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('Cancelled');

    const runs = await runsOf(id);
    expect(runs.map((r) => r.status)).toEqual(['Cancelled', 'Cancelled', 'Cancelled', 'Cancelled']);
    // The worker learns of it at its next report and stops; queued partitions are skipped when they come up.
    await waitFor('the bucket to stop changing', async () => {
      const before = objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`).length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return [before, objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`).length];
    }, ([before, after]) => before === after);
    const keys = objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`);
    const recorded = runs.flatMap((r) => r.metadata.result.exported_files);
    expect(recorded.length).toBeGreaterThan(0);
    // Every recorded file is there; at most the one file that was being uploaded at the cancel is beyond them.
    expect(keys.length - recorded.length).toBeGreaterThanOrEqual(0);
    expect(keys.length - recorded.length).toBeLessThanOrEqual(1);
    expect(new Set(keys.map((k) => /day=(\d+)/.exec(k)![1]))).toEqual(new Set(['01']));
    const [read] = await queryParquet(exportDir(id), 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM {files}');
    expect(read.n).toBe(read.ids);
    expect(read.n).toBeLessThanOrEqual(3_000);
    expect(read.n).toBe(keys.length * 500);
    // Cancelled is final: a second PATCH is idempotent, and the export cannot be restarted.
    expect((await api('PATCH', `/bulk-exports/${id}`, { status: 'Cancelled' })).body.status).toBe('Cancelled');
  });

  it('a scheduled export spawns its first window after the spawn delay, and the spawned export runs to completion', async () => {
    // An hour-long window ending 8 s from now, runs inside it, and a trace just before it.
    const windowEnd = Date.now() + 8_000;
    const start = windowEnd - 3_600_000;
    const scheduled = await sendTraces(client, project.name, [start - 60_000, start, start + 20 * 60_000, windowEnd - 90_000]);
    await waitFor('the scheduled runs to be stored', () => sourceIds(project.id, new Date(start - 120_000).toISOString(), new Date(windowEnd).toISOString()), (ids) => ids.length === scheduled.length);

    const parent = await createExport({ start_time: new Date(start).toISOString(), interval_hours: 1, format_version: 'v2_beta' });
    expect(parent.status).toBe('IntervalScheduled');
    const spawnedOf = async () => ((await api('GET', '/bulk-exports')).body as Array<{ id: string; source_bulk_export_id: string | null; start_time: string; end_time: string; created_at: string }>).filter((e) => e.source_bulk_export_id === parent.id);
    const [spawned] = await waitFor('the first window to be spawned', spawnedOf, (list) => list.length > 0, 30_000, 100);
    expect(Date.parse(spawned.start_time)).toBe(start);
    expect(Date.parse(spawned.end_time)).toBe(start + 3_600_000);
    // Spawned only once its window had ended plus the spawn delay (3 s here), for runs submitted late.
    expect(Date.parse(spawned.created_at)).toBeGreaterThanOrEqual(windowEnd + 3_000);
    expect((await finished(spawned.id)).status).toBe('Completed');
    const { body: runsOfSchedule } = await api('GET', `/bulk-exports/runs?source_bulk_export_id=${parent.id}`);
    expect(runsOfSchedule.every((r: { status: string }) => r.status === 'Completed')).toBe(true);

    const expected = scheduled.filter((r) => r.start_time >= start && r.start_time < start + 3_600_000).map((r) => r.id);
    expect(expected).toHaveLength(9);
    const rows = await queryParquet(exportDir(spawned.id), 'SELECT id FROM {files} ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(expected.sort());

    // Cancelling the schedule stops it; the export it already spawned stays as it is.
    expect((await api('PATCH', `/bulk-exports/${parent.id}`, { status: 'Cancelled' })).body.status).toBe('Cancelled');
    expect((await api('GET', `/bulk-exports/${spawned.id}`)).body.status).toBe('Completed');
  });
});
