import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { exportProgressService, type ExportProgressClient } from '@platform/contracts';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { callUnary, createClient } from '@platform/grpc';
import type { Job } from '@platform/job-bus';
import { startTestExportService, type TestExportService } from './export-service.testing';

// Exports over HTTP and the ExportProgress gRPC API of a running export service (dispatcher, scheduler and sweeper
// loops on), with a test consumer on the job bus playing the worker over real gRPC.
jest.setTimeout(60_000);

type JobData = { export_id: string; run_id: string; tenant_id: string };
let s3: TestS3Server;
let svc: TestExportService;
let destinationId: string;
const tenant = randomUUID();
const jobs: Job<JobData>[] = [];
// Exports whose jobs the test consumer completes at once; the others are left to the test.
const autoComplete = new Set<string>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

beforeAll(async () => {
  s3 = await startTestS3Server({ buckets: ['exports'] });
  svc = await startTestExportService({ EXPORT_RETRY_DELAY: '300ms', EXPORT_RUN_MAX_RETRIES: '1' });
  destinationId = await createDestination(svc);
  await svc.bus.consume(
    svc.queue,
    async (job) => {
      jobs.push(job);
      if (autoComplete.has(job.data.export_id)) await complete(job);
    },
    { durable: 'test-worker', concurrency: 10 },
  );
});

async function createDestination(service: TestExportService): Promise<string> {
  const dest = await service.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', {
    destination_type: 's3',
    display_name: 'd',
    config: { bucket_name: 'exports', prefix: 'root', endpoint_url: s3.endpoint, config_kwargs_s3: { addressing_style: 'path' } },
    credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
  });
  return dest.body.id;
}

// Plays a worker that exports nothing but reports a file and completion, over real gRPC.
const completed = new Set<string>();
async function complete(job: Job<JobData>, service = svc): Promise<void> {
  if (completed.has(job.id)) return;
  completed.add(job.id);
  const cp = await callUnary(service.progress, 'GetRunCheckpoint', { export_id: job.data.export_id, run_id: job.data.run_id });
  if (!cp.continue_run) return;
  await callUnary(service.progress, 'ReportProgress', {
    export_id: job.data.export_id,
    run_id: job.data.run_id,
    attempt: cp.attempt,
    cursor: { start_time: cp.spec!.start_time, id: randomUUID() },
    rows_written: 3,
    bytes_written: 300,
    files: [{ key: `root/export_id=${job.data.export_id}/${job.data.run_id}.parquet`, rows: 3, bytes: 300 }],
    done: true,
  });
}

async function autoCompleteExport(exportId: string): Promise<void> {
  autoComplete.add(exportId);
  for (const job of jobs.filter((j) => j.data.export_id === exportId)) await complete(job);
}
afterAll(async () => {
  await svc?.stop();
  await s3?.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  bulk_export_destination_id: destinationId,
  session_id: randomUUID(),
  start_time: '2024-05-01T12:00:00Z',
  end_time: '2024-05-03T06:00:00Z',
  ...overrides,
});

function rawCall(client: ExportProgressClient, method: 'ReportProgress' | 'GetRunCheckpoint', request: object): Promise<grpc.ServiceError | undefined> {
  return new Promise((resolve) => {
    (client[method] as (req: object, cb: (err: grpc.ServiceError | null) => void) => void).call(client, request, (err) => resolve(err ?? undefined));
  });
}

describe('bulk exports over HTTP', () => {
  it('creates a one-off export split into UTC-day runs, dispatches them, and completes when the last run reports done', async () => {
    const created = await svc.call(tenant, 'POST', '/api/v1/bulk-exports', { ...body(), export_fields: ['id', 'name'], format_version: 'V2_BETA', compression: 'zstandard' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      tenant_id: tenant,
      bulk_export_destination_id: destinationId,
      start_time: '2024-05-01T12:00:00.000Z',
      end_time: '2024-05-03T06:00:00.000Z',
      status: 'Created',
      format: 'Parquet',
      format_version: 'v2_beta',
      compression: 'zstandard',
      export_fields: ['id', 'name'],
      interval_hours: null,
      source_bulk_export_id: null,
      finished_at: null,
    });
    const id = created.body.id;
    await autoCompleteExport(id);

    const done = await until('export Completed', async () => {
      const got = await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${id}`);
      return got.body.status === 'Completed' && got.body;
    });
    expect(done.finished_at).toEqual(expect.any(String));

    const runs = (await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${id}/runs`)).body;
    expect(runs.map((r: { start_time: string; end_time: string }) => [r.start_time, r.end_time])).toEqual([
      ['2024-05-01T12:00:00.000Z', '2024-05-02T00:00:00.000Z'],
      ['2024-05-02T00:00:00.000Z', '2024-05-03T00:00:00.000Z'],
      ['2024-05-03T00:00:00.000Z', '2024-05-03T06:00:00.000Z'],
    ]);
    const session = created.body.session_id;
    expect(runs[1]).toMatchObject({
      bulk_export_id: id,
      status: 'Completed',
      retry_number: 0,
      errors: {},
      metadata: {
        prefix: `root/export_id=${id}/tenant_id=${tenant}/session_id=${session}/runs/year=2024/month=05/day=02`,
        start_time: '2024-05-02T00:00:00.000Z',
        end_time: '2024-05-03T00:00:00.000Z',
        result: { rows_written: 3, exported_files: [`root/export_id=${id}/${runs[1].id}.parquet`], export_path: `root/export_id=${id}` },
      },
    });
    const one = await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${id}/runs/${runs[0].id}`);
    expect(one.body.id).toBe(runs[0].id);
    expect((await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${id}/runs/${randomUUID()}`)).status).toBe(404);

    const list = (await svc.call(tenant, 'GET', '/api/v1/bulk-exports')).body;
    expect(list.map((e: { id: string }) => e.id)).toContain(id);
    // Another workspace sees none of it.
    const other = randomUUID();
    expect((await svc.call(other, 'GET', `/api/v1/bulk-exports/${id}`)).status).toBe(404);
    expect((await svc.call(other, 'GET', `/api/v1/bulk-exports/${id}/runs`)).status).toBe(404);
    expect((await svc.call(other, 'GET', '/api/v1/bulk-exports')).body).toEqual([]);
    expect((await svc.call(other, 'POST', '/api/v1/bulk-exports', body())).status).toBe(404);
  });

  it('answers FastAPI-shaped 422s', async () => {
    const missing = await svc.call(tenant, 'POST', '/api/v1/bulk-exports', { start_time: '2024-05-01T00:00:00Z' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'bulk_export_destination_id'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'session_id'], msg: 'Field required', type: 'missing' },
      ]),
    );
    const scheduledWithEnd = await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ interval_hours: 24 }));
    expect(scheduledWithEnd.status).toBe(422);
    expect(scheduledWithEnd.body.detail[0].loc).toEqual(['body', 'end_time']);
    expect((await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ session_id: 'project-1' }))).body.detail[0]).toMatchObject({
      loc: ['body', 'session_id'],
      msg: 'session_id must be a UUID',
    });
    expect((await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ end_time: undefined, interval_hours: 200 }))).body.detail[0].loc).toEqual(['body', 'interval_hours']);
    expect((await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ bulk_export_destination_id: randomUUID() }))).status).toBe(404);

    const created = (await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body())).body;
    const patch = await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/${created.id}`, { status: 'Running' });
    expect(patch.status).toBe(422);
    expect(patch.body.detail[0].loc).toEqual(['body', 'status']);
    await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/${created.id}`, { status: 'cancelled' });
  });

  it('schedules: IntervalScheduled parent, spawned windows with source_bulk_export_id, their runs, cancel stops spawning', async () => {
    const hour = 3_600_000;
    const start = new Date(Math.floor((Date.now() - 2.5 * hour) / 1000) * 1000);
    const created = await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ start_time: start.toISOString(), end_time: undefined, interval_hours: 1 }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'IntervalScheduled', end_time: null, interval_hours: 1 });
    const parentId = created.body.id;

    // Windows 1 and 2 ended 1.5 h and 0.5 h ago (more than the 10 minute delay); window 3 ends in half an hour.
    const spawned = await until('two spawned exports', async () => {
      const all = (await svc.call(tenant, 'GET', '/api/v1/bulk-exports')).body as { source_bulk_export_id: string; start_time: string; end_time: string; id: string }[];
      const mine = all.filter((e) => e.source_bulk_export_id === parentId);
      return mine.length >= 2 && mine;
    });
    await sleep(200);
    const windows = spawned.map((e) => [e.start_time, e.end_time]).sort();
    expect(windows).toEqual([
      [start.toISOString(), new Date(start.getTime() + hour).toISOString()],
      [new Date(start.getTime() + hour).toISOString(), new Date(start.getTime() + 2 * hour).toISOString()],
    ]);
    const runs = await svc.call(tenant, 'GET', `/api/v1/bulk-exports/runs?source_bulk_export_id=${parentId}`);
    expect(runs.status).toBe(200);
    expect(new Set(runs.body.map((r: { bulk_export_id: string }) => r.bulk_export_id))).toEqual(new Set(spawned.map((e) => e.id)));
    expect((await svc.call(tenant, 'GET', '/api/v1/bulk-exports/runs')).status).toBe(422);

    const cancelled = await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/${parentId}`, { status: 'CANCELLED' });
    expect(cancelled.body.status).toBe('Cancelled');
    for (const e of spawned) expect((await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${e.id}`)).body.status).not.toBe('Cancelled');
  });
});

describe('export.v1.ExportProgress', () => {
  async function heldExport(days = 1) {
    const created = (await svc.call(tenant, 'POST', '/api/v1/bulk-exports', body({ start_time: '2024-06-01T00:00:00Z', end_time: `2024-06-0${1 + days}T00:00:00Z` }))).body;
    const job = await until('a job', async () => jobs.find((j) => j.data.export_id === created.id));
    return { exportId: created.id as string, runId: job.data.run_id };
  }

  it('hands out the run spec with decrypted credentials; refuses a stale attempt with FAILED_PRECONDITION', async () => {
    const { exportId, runId } = await heldExport();
    const cp = await callUnary(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: runId });
    expect(cp).toMatchObject({
      continue_run: true,
      attempt: 0,
      spec: {
        tenant_id: tenant,
        start_time: '1717200000000000',
        end_time: '1717286400000000',
        compression: 'gzip',
        format_version: 'v1',
        destination: { bucket_name: 'exports', prefix: 'root', endpoint_url: s3.endpoint, addressing_style: 'path', access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
      },
    });
    const stale = await rawCall(svc.progress, 'ReportProgress', { export_id: exportId, run_id: runId, attempt: 5, rows_written: 1 });
    expect(stale?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect((await rawCall(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: randomUUID() }))?.code).toBe(grpc.status.NOT_FOUND);
    expect((await rawCall(svc.progress, 'GetRunCheckpoint', { export_id: 'x', run_id: runId }))?.code).toBe(grpc.status.INVALID_ARGUMENT);

    const anonymous = createClient(exportProgressService().Client, svc.progress.getChannel().getTarget().replace(/^dns:/, ''));
    expect((await rawCall(anonymous, 'GetRunCheckpoint', { export_id: exportId, run_id: runId }))?.code).toBe(grpc.status.UNAUTHENTICATED);
    anonymous.close();
  });

  it('retries a retryable failure after the delay (retry_0 recorded), then fails the export when retries run out', async () => {
    const { exportId, runId } = await heldExport();
    await callUnary(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: runId });
    const failedAt = Date.now();
    await callUnary(svc.progress, 'ReportFailure', { export_id: exportId, run_id: runId, attempt: 0, error: 'stream reset', retryable: true });
    const run = (await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${exportId}/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'Running', retry_number: 1, errors: { retry_0: 'stream reset' } });

    const second = await until('the retried job', async () => jobs.filter((j) => j.data.run_id === runId)[1]);
    expect(second.publishedAt.getTime() - failedAt).toBeGreaterThanOrEqual(300);
    const cp = await callUnary(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: runId });
    expect(cp.attempt).toBe(1);
    await callUnary(svc.progress, 'ReportFailure', { export_id: exportId, run_id: runId, attempt: 1, error: 'stream reset again', retryable: true });
    const exp = (await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${exportId}`)).body;
    expect(exp).toMatchObject({ status: 'Failed' });
    expect((await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${exportId}/runs/${runId}`)).body).toMatchObject({
      status: 'Failed',
      errors: { retry_0: 'stream reset', retry_1: 'stream reset again' },
    });
  });

  it('fails the export at once on a destination error', async () => {
    const { exportId, runId } = await heldExport();
    await callUnary(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: runId });
    await callUnary(svc.progress, 'ReportFailure', { export_id: exportId, run_id: runId, attempt: 0, error: 'Bucket is not valid: UploadPart failed with NoSuchBucket', retryable: false });
    expect((await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${exportId}`)).body.status).toBe('Failed');
  });

  it('after cancel, an in-flight worker is told to stop at its next report', async () => {
    const { exportId, runId } = await heldExport(2);
    await callUnary(svc.progress, 'GetRunCheckpoint', { export_id: exportId, run_id: runId });
    const report = { export_id: exportId, run_id: runId, attempt: 0, rows_written: 1, files: [{ key: 'k', rows: 1, bytes: 1 }] };
    expect((await callUnary(svc.progress, 'ReportProgress', report)).continue_run).toBe(true);
    expect((await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/${exportId}`, { status: 'Cancelled' })).body.status).toBe('Cancelled');
    expect((await callUnary(svc.progress, 'ReportProgress', report)).continue_run).toBe(false);
    const runs = (await svc.call(tenant, 'GET', `/api/v1/bulk-exports/${exportId}/runs`)).body;
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['Cancelled', 'Cancelled']);
    expect((await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/${exportId}`, { status: 'Cancelled' })).status).toBe(200);
  });
});

describe('dispatch', () => {
  it('dispatches a new export, and the next partition as soon as a run ends, without waiting for the dispatcher tick', async () => {
    // No tick comes during the test: every dispatch below is the service acting on a create or a finished run.
    const idle = await startTestExportService({ EXPORT_DISPATCH_INTERVAL: '1h', EXPORT_MAX_RUNNING_RUNS_PER_EXPORT: '1' });
    try {
      const destination = await createDestination(idle);
      const seen: string[] = [];
      await idle.bus.consume(
        idle.queue,
        async (job) => {
          seen.push(job.data.run_id);
          await complete(job, idle);
        },
        { durable: 'test-wake-worker', concurrency: 1 },
      );
      const created = await idle.call(tenant, 'POST', '/api/v1/bulk-exports', { ...body(), bulk_export_destination_id: destination });
      expect(created.status).toBe(200);
      const done = await until('export Completed', async () => {
        const got = await idle.call(tenant, 'GET', `/api/v1/bulk-exports/${created.body.id}`);
        return got.body.status === 'Completed' && got.body;
      });
      expect(done.finished_at).toEqual(expect.any(String));
      // Three days, one at a time (the limit is one running run per export), each dispatched once.
      expect(new Set(seen).size).toBe(3);
    } finally {
      await idle.stop();
    }
  });
});
