// In-test implementations of the use case's ports, to isolate its logic (rolling, resuming, cancelling, failing).
// The Parquet writer stays the real one; the adapters have their own tests against real tracing, S3 and gRPC.
import { readFile } from 'node:fs/promises';
import { ConflictError } from '@platform/errors';
import { toNdjsonRows } from '@platform/export-parquet';
import type { ExportedFile, PartitionJob, PartitionSpec, RunCheckpoint, RunCursor } from './partition.types';
import type { FailureReport, LocalFile, ObjectStore, ProgressReport, ProgressReporter, RunPage, RunQuery, RunSource } from './ports';

export interface TestRun {
  id: string;
  start_time: string;
  name: string;
  inputs?: string;
  tags: string[];
}

/** `count` runs, two per microsecond so cursors must break ties on id. */
export function makeRuns(count: number, payload = 40): TestRun[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    start_time: String(1_714_521_600_000_000 + Math.floor(i / 2)),
    name: `run-${i}`,
    inputs: JSON.stringify({ i, text: 'x'.repeat(payload) }),
    tags: [`t${i % 3}`],
  }));
}

const after = (run: TestRun, cursor: RunCursor) =>
  BigInt(run.start_time) > BigInt(cursor.startTime) || (run.start_time === cursor.startTime && run.id > cursor.id);

/** Runs in (start_time, id) order, in pages; records each stream and whether it was left early. */
export class InMemoryRunSource implements RunSource {
  readonly queries: RunQuery[] = [];
  closedEarly = 0;
  failWith?: unknown;

  constructor(
    private readonly runs: TestRun[],
    private readonly pageSize = 100,
  ) {}

  async *stream(query: RunQuery, signal: AbortSignal): AsyncIterable<RunPage> {
    this.queries.push(query);
    const rows = query.after ? this.runs.filter((r) => after(r, query.after as RunCursor)) : this.runs;
    let finished = false;
    try {
      for (let i = 0; i < rows.length; i += this.pageSize) {
        await new Promise((resolve) => setImmediate(resolve));
        if (signal.aborted) throw signal.reason;
        if (this.failWith && i > 0) throw this.failWith;
        const runs = rows.slice(i, i + this.pageSize);
        const last = runs[runs.length - 1];
        yield { rows: toNdjsonRows(runs), cursor: { startTime: last.start_time, id: last.id } };
      }
      finished = true;
    } finally {
      if (!finished) this.closedEarly++;
    }
  }
}

/** Files "uploaded" into memory. `failPut(n)` makes the n-th put (1-based) throw `error`. */
export class InMemoryObjectStore implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  readonly puts: string[] = [];
  readonly aborted: string[] = [];
  private failure?: { at: number; error: unknown };
  reportedSize?: (key: string, actual: number) => number | undefined;
  closed = false;

  failPut(at: number, error: unknown): void {
    this.failure = { at, error };
  }

  async putFile(key: string, file: LocalFile, signal: AbortSignal): Promise<void> {
    this.puts.push(key);
    if (signal.aborted) throw signal.reason;
    if (this.failure?.at === this.puts.length) {
      this.aborted.push(key);
      throw this.failure.error;
    }
    this.objects.set(key, await readFile(file.path));
  }

  async sizeOf(key: string): Promise<number | undefined> {
    const actual = this.objects.get(key)?.length ?? 0;
    return this.reportedSize ? this.reportedSize(key, actual) : actual;
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * The export service's side: keeps the run's checkpoint as it would (files keyed, cursor and totals from the last
 * report), answers `continueRun` through `continueAfter`, and can fail a given report.
 */
export class InMemoryProgress implements ProgressReporter {
  readonly reports: ProgressReport[] = [];
  readonly failures: FailureReport[] = [];
  state: Omit<RunCheckpoint, 'spec'>;
  /** `continueRun` for the n-th recorded report (1-based); default true. */
  continueAfter: (n: number) => boolean = () => true;
  /** Report calls so far, failed ones included. */
  calls = 0;
  private failReport?: { at: number; error: unknown };
  staleAttempt = false;

  constructor(
    readonly spec: PartitionSpec,
    start: Partial<Omit<RunCheckpoint, 'spec'>> = {},
  ) {
    this.state = { continueRun: true, attempt: 0, rowsWritten: 0, bytesWritten: 0, files: [], ...start };
  }

  async checkpoint(): Promise<RunCheckpoint> {
    return { ...this.state, files: [...this.state.files], spec: this.state.continueRun ? this.spec : undefined };
  }

  async progress(report: ProgressReport): Promise<{ continueRun: boolean }> {
    const n = ++this.calls;
    if (this.failReport?.at === n) throw this.failReport.error;
    if (this.staleAttempt) throw new ConflictError('attempt 0 is not the current attempt');
    this.reports.push(report);
    const byKey = new Map<string, ExportedFile>(this.state.files.map((f) => [f.key, f]));
    for (const f of report.files) byKey.set(f.key, f);
    this.state = { ...this.state, files: [...byKey.values()], cursor: report.cursor, rowsWritten: report.rowsWritten, bytesWritten: report.bytesWritten };
    return { continueRun: this.continueAfter(this.reports.length) };
  }

  /** The n-th report call throws `error` instead of being recorded. */
  failReportAt(n: number, error: unknown): void {
    this.failReport = { at: n, error };
  }

  async failure(report: FailureReport): Promise<void> {
    this.failures.push(report);
  }
}

export const TEST_JOB: PartitionJob = {
  exportId: 'e0000000-0000-4000-8000-000000000001',
  runId: 'a0000000-0000-4000-8000-000000000002',
};

export function testSpec(overrides: Partial<PartitionSpec> = {}): PartitionSpec {
  return {
    tenantId: '11111111-1111-4111-8111-111111111111',
    sessionId: '22222222-2222-4222-8222-222222222222',
    startUs: '1714521600000000',
    endUs: '1714608000000000',
    filter: '',
    fields: ['id', 'start_time', 'name', 'inputs', 'tags'],
    formatVersion: 'v2_beta',
    compression: 'zstandard',
    destination: { bucket_name: 'bucket', prefix: 'exports' },
    ...overrides,
  };
}
