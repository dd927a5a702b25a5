import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { EXPORTABLE_RUN_FIELDS } from '@platform/contracts';
import { InputError, UnavailableError } from '@platform/errors';
import { createDuckDbParquetWriterFactory, RUN_COLUMN_NAMES, type ParquetWriterFactory } from '@platform/export-parquet';
import { silentLogger } from '@platform/logging';
import { exportPartition, type ExportPartitionOptions } from './export-partition.usecase';
import { InMemoryObjectStore, InMemoryProgress, InMemoryRunSource, makeRuns, TEST_JOB, testSpec, type TestRun } from './in-memory-ports.testing';
import { ObjectStoreError, ProgressServiceError, RunSourceError } from './partition.errors';
import type { PartitionSpec } from './partition.types';

const FOLDER =
  'exports/export_id=e0000000-0000-4000-8000-000000000001/tenant_id=11111111-1111-4111-8111-111111111111/' +
  'session_id=22222222-2222-4222-8222-222222222222/runs/year=2024/month=05/day=01';
const key = (n: number) => `${FOLDER}/${TEST_JOB.runId}-${String(n).padStart(5, '0')}.parquet`;

describe('exportPartition', () => {
  let dir: string;
  let parquet: ParquetWriterFactory;
  let stagingDir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'export-partition-spec-'));
    stagingDir = join(dir, 'staging');
    mkdirSync(stagingDir);
    parquet = createDuckDbParquetWriterFactory({ tempDir: stagingDir, threads: 1, memoryLimit: '256MB' });
  });

  afterAll(async () => {
    await parquet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(runs: TestRun[], options: { spec?: Partial<PartitionSpec>; pageSize?: number; start?: ConstructorParameters<typeof InMemoryProgress>[1] } = {}) {
    const source = new InMemoryRunSource(runs, options.pageSize ?? 100);
    const store = new InMemoryObjectStore();
    const progress = new InMemoryProgress(testSpec(options.spec), options.start);
    const deps = { progress, runs: source, objectStores: () => store, parquet, logger: silentLogger };
    const run = (opts: Partial<ExportPartitionOptions> = {}) => exportPartition(deps, TEST_JOB, { fileMaxBytes: 1 << 30, fileMaxRows: 1_000, ...opts });
    return { source, store, progress, run };
  }

  /** Every row of every stored file, in key order, read back with DuckDB. */
  async function storedRows(store: InMemoryObjectStore): Promise<{ id: string; name: string; tags: string[] }[]> {
    const files = join(dir, `read-${Math.random().toString(36).slice(2)}`);
    mkdirSync(files);
    const keys = [...store.objects.keys()].sort();
    keys.forEach((k, i) => writeFileSync(join(files, `${String(i).padStart(5, '0')}.parquet`), store.objects.get(k) as Buffer));
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      if (!keys.length) return [];
      const reader = await connection.runAndReadAll(
        `SELECT id, name, tags FROM read_parquet('${files}/*.parquet', filename = true, file_row_number = true) ORDER BY filename, file_row_number`,
      );
      return reader.getRowObjectsJson() as { id: string; name: string; tags: string[] }[];
    } finally {
      connection.closeSync();
      db.closeSync();
      rmSync(files, { recursive: true, force: true });
    }
  }

  /** Files being written or waiting for upload (the writer factory keeps them under one directory). */
  const stagedFiles = () => readdirSync(stagingDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ndjson|parquet)$/.test(f));

  const cursorOf = (run: TestRun) => ({ startTime: run.start_time, id: run.id });

  it('rolls files at the row bound, records each with the cursor of its last run, and ends with done', async () => {
    const runs = makeRuns(2_500);
    const { store, progress, run } = setup(runs, { pageSize: 250 });
    await expect(run()).resolves.toEqual({ status: 'completed', rows: 2_500, files: 3 });
    expect([...store.objects.keys()]).toEqual([key(0), key(1), key(2)]);
    expect(progress.reports.map((r) => ({ files: r.files.map((f) => [f.key, f.rows]), cursor: r.cursor, rows: r.rowsWritten, done: r.done }))).toEqual([
      { files: [[key(0), 1_000]], cursor: cursorOf(runs[999]), rows: 1_000, done: false },
      { files: [[key(1), 1_000]], cursor: cursorOf(runs[1_999]), rows: 2_000, done: false },
      { files: [[key(2), 500]], cursor: cursorOf(runs[2_499]), rows: 2_500, done: true },
    ]);
    const bytes = [...store.objects.values()].map((b) => b.length);
    expect(progress.reports.map((r) => r.files[0].bytes)).toEqual(bytes);
    expect(progress.reports[2].bytesWritten).toBe(bytes.reduce((a, b) => a + b));
    expect((await storedRows(store)).map((r) => r.id)).toEqual(runs.map((r) => r.id));
    expect(store.closed).toBe(true);
    expect(stagedFiles()).toEqual([]);
  });

  it('rolls at the byte bound exactly, splitting pages where they cross it', async () => {
    const runs = makeRuns(1_000, 1_000);
    const { store, progress, run } = setup(runs, { pageSize: 100 });
    const bound = 250_000;
    // What the bound allows, run by run: each file holds the runs whose staged lines (newline included) fit.
    const expected: number[] = [0];
    let staged = 0;
    for (const r of runs) {
      const bytes = Buffer.byteLength(JSON.stringify(r)) + 1;
      if (staged + bytes > bound) {
        expected.push(0);
        staged = 0;
      }
      staged += bytes;
      expected[expected.length - 1]++;
    }
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.some((n) => n % 100 !== 0)).toBe(true);
    await expect(run({ fileMaxBytes: bound, fileMaxRows: 1_000_000 })).resolves.toMatchObject({ status: 'completed', rows: 1_000, files: expected.length });
    expect(progress.reports.map((r) => r.files[0].rows)).toEqual(expected);
    let through = 0;
    for (const [i, report] of progress.reports.entries()) {
      through += expected[i];
      expect(report.cursor).toEqual(cursorOf(runs[through - 1]));
    }
    expect((await storedRows(store)).map((r) => r.id)).toEqual(runs.map((r) => r.id));
  });

  it('splits a page at the row bound; a run resumed from a cursor inside a page repeats and loses nothing', async () => {
    const runs = makeRuns(2_500);
    const { store, progress, run } = setup(runs, { pageSize: 300 });
    // The report of file 1 never arrives (the worker dies): the run resumes after file 0's cursor, run 999,
    // which is inside the fourth page.
    progress.failReportAt(2, new UnavailableError('worker killed'));
    await expect(run()).rejects.toBeInstanceOf(ProgressServiceError);
    expect(progress.state.files.map((f) => f.rows)).toEqual([1_000]);
    expect(progress.state.cursor).toEqual(cursorOf(runs[999]));

    await expect(run({ fileMaxRows: 700 })).resolves.toEqual({ status: 'completed', rows: 2_500, files: 3 });
    expect(progress.state.files.map((f) => f.rows)).toEqual([1_000, 700, 700, 100]);
    expect(progress.state.cursor).toEqual(cursorOf(runs[2_499]));
    expect((await storedRows(store)).map((r) => r.id)).toEqual(runs.map((r) => r.id));
  });

  it('gives a run larger than the byte bound a file of its own', async () => {
    const runs = makeRuns(5, 2_000);
    const { progress, run } = setup(runs, { pageSize: 5 });
    await expect(run({ fileMaxBytes: 1_000 })).resolves.toMatchObject({ status: 'completed', rows: 5, files: 5 });
    const withFiles = progress.reports.filter((r) => r.files.length);
    expect(withFiles.map((r) => [r.files[0].rows, r.cursor])).toEqual(runs.map((r) => [1, cursorOf(r)]));
  });

  it('resumes after the recorded cursor, numbering files after the recorded ones and keeping totals cumulative', async () => {
    const runs = makeRuns(2_000);
    const recorded = { key: key(0), rows: 1_000, bytes: 1234 };
    const { source, store, progress, run } = setup(runs, {
      start: { attempt: 3, cursor: cursorOf(runs[999]), rowsWritten: 1_000, bytesWritten: 1234, files: [recorded] },
    });
    await expect(run()).resolves.toEqual({ status: 'completed', rows: 2_000, files: 1 });
    expect(source.queries[0].after).toEqual(cursorOf(runs[999]));
    expect([...store.objects.keys()]).toEqual([key(1)]);
    // The stream ends exactly at the row bound: the rolled file is recorded, then `done` on its own.
    expect(progress.reports).toEqual([
      expect.objectContaining({ attempt: 3, files: [expect.objectContaining({ key: key(1), rows: 1_000 })], rowsWritten: 2_000, done: false }),
      expect.objectContaining({ attempt: 3, files: [], rowsWritten: 2_000, cursor: cursorOf(runs[1_999]), done: true }),
    ]);
    expect(progress.reports[0].bytesWritten).toBe(1234 + (store.objects.get(key(1)) as Buffer).length);
    expect((await storedRows(store)).map((r) => r.id)).toEqual(runs.slice(1_000).map((r) => r.id));
  });

  it('stops at the next file boundary when the export is cancelled, leaving no staged file behind', async () => {
    const runs = makeRuns(5_000);
    const { source, store, progress, run } = setup(runs);
    progress.continueAfter = (n) => n < 2;
    await expect(run()).resolves.toEqual({ status: 'cancelled', rows: 2_000, files: 2 });
    expect([...store.objects.keys()]).toEqual([key(0), key(1)]);
    expect(progress.reports.every((r) => !r.done)).toBe(true);
    expect(source.closedEarly).toBe(1);
    expect(stagedFiles()).toEqual([]);
  });

  it('does not start when the checkpoint says not to', async () => {
    const { source, store, run } = setup(makeRuns(10), { start: { continueRun: false } });
    await expect(run()).resolves.toEqual({ status: 'skipped' });
    expect(source.queries).toEqual([]);
    expect(store.puts).toEqual([]);
  });

  it('reports an empty partition as done with no files', async () => {
    const { store, progress, run } = setup([]);
    await expect(run()).resolves.toEqual({ status: 'completed', rows: 0, files: 0 });
    expect(store.puts).toEqual([]);
    expect(progress.reports).toEqual([expect.objectContaining({ files: [], done: true, rowsWritten: 0, cursor: undefined })]);
  });

  it('fails without retry on a destination error, aborting that upload and uploading nothing after it', async () => {
    const runs = makeRuns(5_000);
    const { store, progress, run } = setup(runs);
    store.failPut(2, new ObjectStoreError('Access denied: UploadPart failed with AccessDenied (HTTP 403)', 'UploadPart', 'AccessDenied', true));
    await expect(run()).resolves.toEqual({ status: 'failed', error: 'Access denied: UploadPart failed with AccessDenied (HTTP 403)', retryable: false });
    expect(store.aborted).toEqual([key(1)]);
    expect(store.puts).toEqual([key(0), key(1)]);
    expect(progress.reports.map((r) => r.files[0].key)).toEqual([key(0)]);
    expect(progress.failures).toEqual([{ ...TEST_JOB, attempt: 0, error: 'Access denied: UploadPart failed with AccessDenied (HTTP 403)', retryable: false }]);
    expect(stagedFiles()).toEqual([]);
  });

  it('fails with retry on a transient store error and on a size mismatch', async () => {
    const transient = setup(makeRuns(1_500));
    transient.store.failPut(1, new ObjectStoreError('UploadPart failed with InternalError (HTTP 500)', 'UploadPart', 'InternalError', false));
    await expect(transient.run()).resolves.toMatchObject({ status: 'failed', retryable: true });

    const mismatch = setup(makeRuns(1_500));
    mismatch.store.reportedSize = (_, actual) => actual - 1;
    const outcome = await mismatch.run();
    expect(outcome).toMatchObject({ status: 'failed', retryable: true, error: expect.stringContaining('Size check failed') });
    expect(mismatch.progress.reports).toEqual([]);
  });

  it('accepts a destination that does not allow reads (no size to check)', async () => {
    const { store, progress, run } = setup(makeRuns(10));
    store.reportedSize = () => undefined;
    await expect(run()).resolves.toMatchObject({ status: 'completed', rows: 10 });
    expect(progress.reports[0].files[0].rows).toBe(10);
  });

  it('fails without retry when tracing rejects the request, with retry when tracing fails transiently', async () => {
    const bad = setup(makeRuns(500));
    bad.source.failWith = new InputError('Invalid filter at position 3');
    await expect(bad.run()).resolves.toEqual({ status: 'failed', error: 'Reading runs failed: Invalid filter at position 3', retryable: false });

    const flaky = setup(makeRuns(500));
    flaky.source.failWith = new UnavailableError('connection reset');
    await expect(flaky.run()).resolves.toEqual({ status: 'failed', error: 'Reading runs failed: connection reset', retryable: true });
    expect(flaky.progress.failures).toHaveLength(1);
  });

  it('hands the job back (throws) when the export service cannot be reached, and stops quietly when its attempt is stale', async () => {
    const unreachable = setup(makeRuns(1_500));
    unreachable.progress.failReportAt(1, new UnavailableError('export service down'));
    await expect(unreachable.run()).rejects.toBeInstanceOf(ProgressServiceError);
    expect(unreachable.progress.failures).toEqual([]);

    const stale = setup(makeRuns(1_500));
    stale.progress.staleAttempt = true;
    await expect(stale.run()).resolves.toMatchObject({ status: 'abandoned', reason: expect.stringContaining('not the current attempt') });
    expect(stale.progress.failures).toEqual([]);
  });

  it('after a crash between upload and report, the resumed run overwrites the unrecorded file: no row twice, none lost', async () => {
    const runs = makeRuns(3_500);
    const { store, progress, run } = setup(runs);
    // File 1 reaches the bucket, then the report of it never arrives (the worker dies).
    progress.failReportAt(2, new UnavailableError('worker killed'));
    await expect(run()).rejects.toBeInstanceOf(ProgressServiceError);
    expect([...store.objects.keys()]).toEqual([key(0), key(1)]);

    // Redelivery: same bucket, same export service state (file 0 recorded, cursor after run 999). Files roll
    // at other boundaries this time, so a surviving orphan (runs 1000-1999) would duplicate rows.
    await expect(run({ fileMaxRows: 600 })).resolves.toEqual({ status: 'completed', rows: 3_500, files: 5 });
    expect([...store.objects.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5].map(key));
    expect(progress.state.files.map((f) => [f.key, f.rows])).toEqual([
      [key(0), 1_000],
      [key(1), 600],
      [key(2), 600],
      [key(3), 600],
      [key(4), 600],
      [key(5), 100],
    ]);
    const ids = (await storedRows(store)).map((r) => r.id);
    expect(ids).toEqual(runs.map((r) => r.id));
  });

  it('on shutdown rethrows the reason and reports nothing', async () => {
    const { store, progress, run } = setup(makeRuns(5_000));
    const shutdown = new AbortController();
    progress.continueAfter = (n) => {
      if (n === 1) shutdown.abort(new Error('SIGTERM'));
      return true;
    };
    await expect(run({ signal: shutdown.signal })).rejects.toThrow('SIGTERM');
    expect(progress.failures).toEqual([]);
    expect(store.objects.size).toBe(1);
    expect(stagedFiles()).toEqual([]);
  });

  it('wraps a failing stream as a RunSourceError', async () => {
    const { source, run } = setup(makeRuns(300));
    source.failWith = new Error('boom');
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 'failed', error: new RunSourceError(new Error('boom')).message });
  });

  it('has a Parquet column for every exportable run field, in the contract’s order', () => {
    expect(RUN_COLUMN_NAMES).toEqual([...EXPORTABLE_RUN_FIELDS]);
  });
});
