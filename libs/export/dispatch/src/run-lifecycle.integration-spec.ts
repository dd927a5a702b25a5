import { randomUUID } from 'node:crypto';
import { exportPartitionQueue } from '@platform/contracts';
import { createInProcessBus, type JobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { DestinationsRepository, DispatchRepository, ExportsRepository, RunProgressRepository, StaleAttemptError } from '@platform/export-data-access';
import { manualClock, openTestExportDb, seedDestination, seedExport, testCipher, testSettings, type TestExportDb } from '@platform/export-data-access/testing';
import { cancelExport } from '@platform/export-exports';
import { dispatchOnce, type DispatcherDeps } from './dispatcher';
import { recordingBus } from './dispatch.testing';
import { getRunCheckpoint } from './get-run-checkpoint.usecase';
import { sweepTimeouts } from './sweeper';

// Run state machine on a real database (Postgres with DATABASE_URL, else PGlite), with a clock the test moves.
jest.setTimeout(60_000);

let t: TestExportDb;
let bus: JobBus;
const cipher = testCipher();
const settings = testSettings({ maxRetries: 2, retryDelayMs: 30_000, runTimeoutMs: 4 * 3_600_000, exportTimeoutMs: 72 * 3_600_000 });

beforeAll(async () => {
  t = await openTestExportDb();
  bus = createInProcessBus();
});
afterAll(async () => {
  await bus?.close();
  await t?.close();
});

function setup() {
  const clock = manualClock();
  const recorder = recordingBus(bus);
  const prisma = t.db.prisma;
  const destinations = new DestinationsRepository(prisma, cipher);
  const exports = new ExportsRepository(prisma);
  const progress = new RunProgressRepository(prisma, cipher, settings);
  const dispatcher: DispatcherDeps = { repository: new DispatchRepository(prisma, settings), bus: recorder, clock, logger: silentLogger };
  const tenantId = randomUUID();
  return { clock, recorder, destinations, exports, progress, dispatcher, tenantId };
}

async function runOf(ctx: ReturnType<typeof setup>, exportId: string, index = 0) {
  return (await ctx.exports.runsOf(exportId))[index];
}

/** An export of `days` days, dispatched, with its first run. */
async function dispatchedExport(days: number) {
  const ctx = setup();
  const dest = await seedDestination(ctx.destinations, ctx.tenantId);
  const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days });
  await dispatchOnce(ctx.dispatcher);
  return { ctx, e, run: await runOf(ctx, e.id) };
}

describe('export runs: progress, retries, timeouts, cancel', () => {
  it('dispatches, checkpoints cumulatively and idempotently, and completes the export with its last run', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 2 });
    await dispatchOnce(ctx.dispatcher);
    expect(ctx.recorder.published.filter((p) => p.exportId === e.id).map((p) => p.msgId)).toEqual((await ctx.exports.runsOf(e.id)).map((r) => `${r.id}:1`));

    const [r1, r2] = await ctx.exports.runsOf(e.id);
    const cp = await getRunCheckpoint({ progress: ctx.progress, clock: ctx.clock }, e.id, r1.id);
    expect(cp).toMatchObject({ continue_run: true, attempt: 0, cursor: null, rows_written: '0', files: [] });
    expect(cp.spec).toMatchObject({
      tenant_id: ctx.tenantId,
      session_id: e.sessionId,
      start_time: '1714521600000000',
      end_time: '1714608000000000',
      format_version: 'v1',
      compression: 'gzip',
      destination: { bucket_name: 'exports', prefix: 'team', access_key_id: 'AKIA-TEST', secret_access_key: 'secret-test', addressing_style: 'path' },
    });

    const file = { key: 'team/a.parquet', rows: 10, bytes: 100 };
    const report = { exportId: e.id, runId: r1.id, attempt: 0, cursor: { startTimeMicros: 5n, id: 'b' }, rowsWritten: 10n, bytesWritten: 100n, files: [file], done: false };
    expect(await ctx.progress.progress(report, ctx.clock())).toEqual({ continueRun: true });
    expect(await ctx.progress.progress(report, ctx.clock())).toEqual({ continueRun: true });
    // An older report arriving late does not move the checkpoint back.
    await ctx.progress.progress({ ...report, cursor: { startTimeMicros: 4n, id: 'z' }, rowsWritten: 3n, files: [] }, ctx.clock());
    let stored = await runOf(ctx, e.id);
    expect(stored).toMatchObject({ rowsWritten: 10n, files: [file], cursor: { startTimeMicros: 5n, id: 'b' } });

    await ctx.progress.progress({ ...report, rowsWritten: 20n, files: [file, { ...file, key: 'team/b.parquet' }], done: true }, ctx.clock());
    stored = await runOf(ctx, e.id);
    expect(stored).toMatchObject({ status: 'Completed', rowsWritten: 20n });
    expect(stored.files.map((f) => f.key)).toEqual(['team/a.parquet', 'team/b.parquet']);
    expect((await ctx.exports.find(ctx.tenantId, e.id))?.status).toBe('Running');

    await ctx.progress.start(e.id, r2.id, ctx.clock());
    await ctx.progress.progress({ ...report, runId: r2.id, cursor: null, rowsWritten: 0n, bytesWritten: 0n, files: [], done: true }, ctx.clock());
    expect(await ctx.exports.find(ctx.tenantId, e.id)).toMatchObject({ status: 'Completed', finishedAt: expect.any(Date) });
  });

  it('flips the export to Completed exactly once when its last two runs finish concurrently', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 2 });
    await dispatchOnce(ctx.dispatcher);
    const runs = await ctx.exports.runsOf(e.id);
    for (const r of runs) await ctx.progress.start(e.id, r.id, ctx.clock());
    await Promise.all(
      runs.map((r) =>
        ctx.progress.progress({ exportId: e.id, runId: r.id, attempt: 0, cursor: null, rowsWritten: 1n, bytesWritten: 1n, files: [], done: true }, ctx.clock()),
      ),
    );
    expect((await ctx.exports.find(ctx.tenantId, e.id))?.status).toBe('Completed');
  });

  it('retries a retryable failure after the fixed delay, recording retry_<n>, then fails the export when the budget is spent', async () => {
    const { ctx, e, run } = await dispatchedExport(2);

    for (let attempt = 0; attempt <= settings.maxRetries; attempt++) {
      await ctx.progress.start(e.id, run.id, ctx.clock());
      const outcome = await ctx.progress.failure({ exportId: e.id, runId: run.id, attempt, error: `boom ${attempt}`, retryable: true }, ctx.clock());
      if (attempt < settings.maxRetries) {
        expect(outcome).toBe('retry');
        ctx.recorder.published.length = 0;
        ctx.clock.advance(settings.retryDelayMs - 1);
        await dispatchOnce(ctx.dispatcher);
        expect(ctx.recorder.published.filter((p) => p.runId === run.id)).toEqual([]);
        ctx.clock.advance(1);
        await dispatchOnce(ctx.dispatcher);
        expect(ctx.recorder.published.filter((p) => p.runId === run.id)).toHaveLength(1);
      } else {
        expect(outcome).toBe('failed');
      }
    }
    const failed = await runOf(ctx, e.id);
    expect(failed).toMatchObject({ status: 'Failed', attempt: 2, errors: { retry_0: 'boom 0', retry_1: 'boom 1', retry_2: 'boom 2' } });
    const exp = await ctx.exports.find(ctx.tenantId, e.id);
    expect(exp).toMatchObject({ status: 'Failed' });
    expect(exp?.error).toContain('boom 2 (retries exhausted after 2 retries)');
    expect((await runOf(ctx, e.id, 1)).status).toBe('Cancelled');
  });

  it('fails a destination error at once, without retry', async () => {
    const { ctx, e, run } = await dispatchedExport(1);
    await ctx.progress.start(e.id, run.id, ctx.clock());
    const error = 'Access denied: PutObject failed with AccessDenied (HTTP 403): Access Denied';
    expect(await ctx.progress.failure({ exportId: e.id, runId: run.id, attempt: 0, error, retryable: false }, ctx.clock())).toBe('failed');
    expect(await runOf(ctx, e.id)).toMatchObject({ status: 'Failed', errors: { retry_0: error } });
    expect((await ctx.exports.find(ctx.tenantId, e.id))?.status).toBe('Failed');
  });

  it('a redelivered job resumes from the checkpoint as the next attempt; the earlier worker is refused', async () => {
    const { ctx, e, run } = await dispatchedExport(1);
    await ctx.progress.start(e.id, run.id, ctx.clock());
    const file = { key: 'k1', rows: 5, bytes: 50 };
    await ctx.progress.progress({ exportId: e.id, runId: run.id, attempt: 0, cursor: { startTimeMicros: 7n, id: 'r5' }, rowsWritten: 5n, bytesWritten: 50n, files: [file], done: false }, ctx.clock());

    // The worker crashed; JetStream redelivers the job to another worker.
    const cp = await getRunCheckpoint({ progress: ctx.progress, clock: ctx.clock }, e.id, run.id);
    expect(cp).toMatchObject({ continue_run: true, attempt: 1, cursor: { start_time: '7', id: 'r5' }, rows_written: '5', files: [file] });
    expect((await runOf(ctx, e.id)).errors.retry_0).toMatch(/interrupted/);
    await expect(
      ctx.progress.progress({ exportId: e.id, runId: run.id, attempt: 0, cursor: null, rowsWritten: 5n, bytesWritten: 50n, files: [], done: true }, ctx.clock()),
    ).rejects.toBeInstanceOf(StaleAttemptError);
    await ctx.progress.progress({ exportId: e.id, runId: run.id, attempt: 1, cursor: { startTimeMicros: 9n, id: 'r9' }, rowsWritten: 9n, bytesWritten: 90n, files: [], done: true }, ctx.clock());
    expect((await ctx.exports.find(ctx.tenantId, e.id))?.status).toBe('Completed');
  });

  it('times out an attempt after the run timeout (retried) and the export after the export timeout (TimedOut, no retry)', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 2 });
    const sweeper = { progress: ctx.progress, clock: ctx.clock, logger: silentLogger, settings };
    await dispatchOnce(ctx.dispatcher);
    const run = await runOf(ctx, e.id);
    await ctx.progress.start(e.id, run.id, ctx.clock());

    ctx.clock.advance(settings.runTimeoutMs);
    expect(await sweepTimeouts(sweeper)).toEqual({ exports: 0, attempts: 0 });
    ctx.clock.advance(1);
    expect(await sweepTimeouts(sweeper)).toEqual({ exports: 0, attempts: 1 });
    expect(await runOf(ctx, e.id)).toMatchObject({ status: 'Running', attempt: 1, errors: { retry_0: 'Run attempt 0 timed out after 4h' } });
    await expect(
      ctx.progress.progress({ exportId: e.id, runId: run.id, attempt: 0, cursor: null, rowsWritten: 0n, bytesWritten: 0n, files: [], done: false }, ctx.clock()),
    ).rejects.toBeInstanceOf(StaleAttemptError);

    ctx.clock.set(new Date(ctx.clock().getTime() - settings.runTimeoutMs - 1 + settings.exportTimeoutMs + 1));
    expect((await sweepTimeouts(sweeper)).exports).toBe(1);
    const exp = await ctx.exports.find(ctx.tenantId, e.id);
    expect(exp).toMatchObject({ status: 'TimedOut', error: 'Export timed out after 72h' });
    expect((await ctx.exports.runsOf(e.id)).map((r) => r.status)).toEqual(['TimedOut', 'TimedOut']);
    ctx.recorder.published.length = 0;
    ctx.clock.advance(settings.retryDelayMs);
    await dispatchOnce(ctx.dispatcher);
    expect(ctx.recorder.published.filter((p) => p.exportId === e.id)).toEqual([]);
    expect((await getRunCheckpoint({ progress: ctx.progress, clock: ctx.clock }, e.id, run.id)).continue_run).toBe(false);
  });

  it('cancel stops dispatch and tells in-flight workers to stop; a final export cannot be cancelled', async () => {
    const ctx = setup();
    const limited = { ...ctx.dispatcher, repository: new DispatchRepository(t.db.prisma, { ...settings, maxRunningRunsPerExport: 1 }) };
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 3 });
    await dispatchOnce(limited);
    const [r1, r2] = await ctx.exports.runsOf(e.id);
    await ctx.progress.start(e.id, r1.id, ctx.clock());

    const deps = { exports: ctx.exports, clock: ctx.clock };
    expect((await cancelExport(deps, ctx.tenantId, e.id)).status).toBe('Cancelled');
    expect((await cancelExport(deps, ctx.tenantId, e.id)).status).toBe('Cancelled');
    const report = { exportId: e.id, runId: r1.id, attempt: 0, cursor: null, rowsWritten: 1n, bytesWritten: 1n, files: [], done: false };
    expect(await ctx.progress.progress(report, ctx.clock())).toEqual({ continueRun: false });
    expect((await getRunCheckpoint({ progress: ctx.progress, clock: ctx.clock }, e.id, r2.id)).continue_run).toBe(false);
    ctx.recorder.published.length = 0;
    await dispatchOnce(limited);
    expect(ctx.recorder.published.filter((p) => p.exportId === e.id)).toEqual([]);
    expect((await ctx.exports.runsOf(e.id)).map((r) => r.status)).toEqual(['Cancelled', 'Cancelled', 'Cancelled']);

    const done = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 1 });
    await dispatchOnce(ctx.dispatcher);
    const only = await runOf(ctx, done.id);
    await ctx.progress.start(done.id, only.id, ctx.clock());
    await ctx.progress.progress({ ...report, exportId: done.id, runId: only.id, done: true }, ctx.clock());
    await expect(cancelExport(deps, ctx.tenantId, done.id)).rejects.toThrow(/Completed and cannot be cancelled/);
    await expect(cancelExport(deps, randomUUID(), done.id)).rejects.toThrow(/not found/);
  });

  it('records the file an in-flight attempt uploads after a cancel, without reopening the run', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 2 });
    await dispatchOnce(ctx.dispatcher);
    const [started, waiting] = await ctx.exports.runsOf(e.id);
    await ctx.progress.start(e.id, started.id, ctx.clock());
    const file = (n: number) => ({ key: `p/${started.id}-0000${n}.parquet`, rows: 10, bytes: 100 });
    const report = (n: number) => ({
      exportId: e.id,
      runId: started.id,
      attempt: 0,
      cursor: { startTimeMicros: BigInt(n), id: `r${n}` },
      rowsWritten: BigInt(10 * (n + 1)),
      bytesWritten: BigInt(100 * (n + 1)),
      files: [file(n)],
      done: false,
    });
    expect(await ctx.progress.progress(report(0), ctx.clock())).toEqual({ continueRun: true });
    await cancelExport({ exports: ctx.exports, clock: ctx.clock }, ctx.tenantId, e.id);

    // The worker was already uploading file 1 when the cancel came: it is in the bucket, so it is listed.
    expect(await ctx.progress.progress({ ...report(1), done: true }, ctx.clock())).toEqual({ continueRun: false });
    const after = await runOf(ctx, e.id);
    expect(after).toMatchObject({ status: 'Cancelled', rowsWritten: 20n, files: [file(0), file(1)], cursor: { startTimeMicros: 1n, id: 'r1' } });
    expect((await ctx.exports.find(ctx.tenantId, e.id))?.status).toBe('Cancelled');
    // Only the attempt that was writing: a stale attempt, or a run that never started, records nothing.
    await ctx.progress.progress({ ...report(2), attempt: 7 }, ctx.clock());
    await ctx.progress.progress({ ...report(2), runId: waiting.id }, ctx.clock());
    expect((await runOf(ctx, e.id)).files).toEqual([file(0), file(1)]);
    expect((await runOf(ctx, e.id, 1)).files).toEqual([]);
  });

  it('runs keep the credentials they started with; later runs use rotated ones', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 2 });
    await dispatchOnce(ctx.dispatcher);
    const [r1, r2] = await ctx.exports.runsOf(e.id);
    const deps = { progress: ctx.progress, clock: ctx.clock };
    expect((await getRunCheckpoint(deps, e.id, r1.id)).spec?.destination?.access_key_id).toBe('AKIA-TEST');
    await ctx.destinations.updateCredentials(dest.id, {
      credentials: { access_key_id: 'AKIA-ROTATED', secret_access_key: 'new-secret', session_token: 'tok' },
      credentialsKeys: ['access_key_id', 'secret_access_key', 'session_token'],
    });
    expect((await getRunCheckpoint(deps, e.id, r2.id)).spec?.destination).toMatchObject({ access_key_id: 'AKIA-ROTATED', session_token: 'tok' });
    // Redelivered: still the credentials it started with.
    expect((await getRunCheckpoint(deps, e.id, r1.id)).spec?.destination?.access_key_id).toBe('AKIA-TEST');
    const raw = await t.db.prisma.bulkExportRun.findUniqueOrThrow({ where: { id: r1.id } });
    expect(raw.destinationSnapshot).not.toContain('AKIA');
  });

  it('publishes a dispatched job again when its publish was never confirmed, under the same message id', async () => {
    const ctx = setup();
    const dest = await seedDestination(ctx.destinations, ctx.tenantId);
    const e = await seedExport(ctx.exports, { tenantId: ctx.tenantId, destinationId: dest.id, days: 1 });
    // The dispatcher committed its marks, then died before publishing.
    const [job] = await ctx.dispatcher.repository.dispatchWorkspace(ctx.tenantId, ctx.clock());
    // Other tests' leftovers share the database: look at this export's jobs only.
    const mine = () => ctx.recorder.published.filter((p) => p.exportId === e.id);
    expect(job.exportId).toBe(e.id);
    ctx.clock.advance(settings.republishAfterMs - 1);
    await dispatchOnce(ctx.dispatcher);
    expect(mine()).toEqual([]);
    ctx.clock.advance(1000);
    await dispatchOnce(ctx.dispatcher);
    expect(mine()).toEqual([{ runId: job.runId, exportId: e.id, msgId: `${job.runId}:1`, duplicate: false }]);
    // Published twice (a racing replica): the bus drops the copy.
    expect((await bus.publish(exportPartitionQueue, { export_id: e.id, run_id: job.runId, tenant_id: ctx.tenantId }, { msgId: `${job.runId}:1` })).duplicate).toBe(true);
    ctx.recorder.published.length = 0;
    await dispatchOnce(ctx.dispatcher);
    expect(mine()).toEqual([]);

    // Published but never started for the redispatch period (lost): a new job.
    ctx.clock.advance(settings.redispatchAfterMs + 1);
    await dispatchOnce(ctx.dispatcher);
    expect(mine().map((p) => p.msgId)).toEqual([`${job.runId}:2`]);
  });
});
