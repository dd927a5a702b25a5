import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import {
  lastNdjsonRow,
  runParquetColumns,
  splitNdjsonRows,
  type NdjsonRows,
  type ParquetFileOnDisk,
  type ParquetFileWriter,
  type ParquetWriterFactory,
} from '@platform/export-parquet';
import type { Logger } from '@platform/logging';
import { fileKey, nextFileIndex, partitionFolder } from './object-keys';
import { describeFailure, ProgressServiceError, RunSourceError, UploadVerificationError } from './partition.errors';
import type { ExportedFile, PartitionJob, PartitionSpec, RunCheckpoint, RunCursor } from './partition.types';
import type { ObjectStore, ObjectStoreFactory, ProgressReport, ProgressReporter, RunPage, RunSource } from './ports';

export interface ExportPartitionDeps {
  progress: ProgressReporter;
  runs: RunSource;
  objectStores: ObjectStoreFactory;
  parquet: ParquetWriterFactory;
  logger: Logger;
}

export interface ExportPartitionOptions {
  /**
   * Bytes of row data (NDJSON) per file at most, exactly (the Parquet file is smaller); a single larger run gets a
   * file of its own.
   */
  fileMaxBytes: number;
  /** Rows per file at most, exactly. */
  fileMaxRows: number;
  /** Shutdown: stop at once, abort the upload in flight, report nothing (the job is handed back). */
  signal?: AbortSignal;
}

export type PartitionOutcome =
  /** The export service said not to start (cancelled, timed out or already final). */
  | { status: 'skipped' }
  | { status: 'completed'; rows: number; files: number }
  /** Cancelled while running: stopped at a file boundary. */
  | { status: 'cancelled'; rows: number; files: number }
  /** The attempt failed and was reported; the export service decides about a retry. */
  | { status: 'failed'; error: string; retryable: boolean }
  /** Another attempt owns the run, the run is gone, or its spec is unusable: this worker stops without reporting. */
  | { status: 'abandoned'; reason: string };

/**
 * Exports one partition run: reads the checkpoint, streams the runs after its cursor, writes them into Parquet
 * files rolled at a size bound, uploads each with one multipart upload, verifies its size, and records it with
 * the cursor of its last run. The next file is encoded while the previous one uploads. Throws only when the
 * export service cannot be reached or on shutdown: the job is then handed back and resumes from the checkpoint.
 */
export async function exportPartition(deps: ExportPartitionDeps, job: PartitionJob, options: ExportPartitionOptions): Promise<PartitionOutcome> {
  const checkpoint = await call('GetRunCheckpoint', () => deps.progress.checkpoint(job)).catch(gone);
  if ('status' in checkpoint) return checkpoint;
  if (!checkpoint.continueRun || !checkpoint.spec) return { status: 'skipped' };
  const store = deps.objectStores(checkpoint.spec.destination, checkpoint.spec.tenantId);
  try {
    return await new PartitionExport(deps, job, checkpoint, checkpoint.spec, store, options).run();
  } finally {
    store.close();
  }
}

// Every StreamRuns line carries the cursor's fields (`start_time` in epoch microseconds, as text, and `id`).
function cursorOfLastRun(rows: NdjsonRows): RunCursor {
  const run = lastNdjsonRow(rows);
  return { startTime: String(run.start_time), id: String(run.id) };
}

async function call<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new ProgressServiceError(name, err);
  }
}

// A stale attempt (FAILED_PRECONDITION), an unknown run (NOT_FOUND) or a spec this worker cannot use ends its part
// quietly: retrying would meet the same answer. Anything else means the service was not reached: rethrown.
function gone(err: unknown): { status: 'abandoned'; reason: string } {
  const cause = err instanceof ProgressServiceError ? err.cause : undefined;
  if (cause instanceof ConflictError || cause instanceof NotFoundError || cause instanceof InputError) {
    return { status: 'abandoned', reason: (err as Error).message };
  }
  throw err;
}

class PartitionExport {
  private readonly folder: string;
  private readonly abort = new AbortController();
  private readonly signal: AbortSignal;
  /** Cursor of the last recorded file (where a next attempt would resume). */
  private cursor: RunCursor | undefined;
  /** Cursor of the last run staged. */
  private lastCursor: RunCursor | undefined;
  private rows: number;
  private bytes: number;
  private nextIndex: number;
  private filesWritten = 0;
  private stopRequested = false;
  private doneReported = false;
  /** The last file's encoding (one at a time). */
  private encoding: Promise<void> = Promise.resolve();
  /** Upload-and-record steps of the last two rolled files; each waits for the one before (files are recorded in order). */
  private steps: Promise<void>[] = [];
  private failure: unknown;

  constructor(
    private readonly deps: ExportPartitionDeps,
    private readonly job: PartitionJob,
    private readonly checkpoint: RunCheckpoint,
    private readonly spec: PartitionSpec,
    private readonly store: ObjectStore,
    private readonly options: ExportPartitionOptions,
  ) {
    this.folder = partitionFolder(job, spec);
    this.signal = options.signal ? AbortSignal.any([options.signal, this.abort.signal]) : this.abort.signal;
    this.cursor = checkpoint.cursor;
    this.rows = checkpoint.rowsWritten;
    this.bytes = checkpoint.bytesWritten;
    this.nextIndex = nextFileIndex(job.runId, checkpoint.files);
  }

  async run(): Promise<PartitionOutcome> {
    let open: ParquetFileWriter | undefined;
    try {
      const ended = await this.writeFiles();
      open = ended.open;
      if (ended.completed && open) {
        const last = open;
        open = undefined;
        await this.enqueue(last, this.lastCursor, true);
      }
      await this.steps[this.steps.length - 1];
      if (this.stopRequested || !ended.completed) return this.outcome('cancelled');
      if (!this.doneReported) await this.report({ files: [], done: true });
      return this.outcome('completed');
    } catch (err) {
      this.abort.abort(err);
      await Promise.allSettled(this.steps);
      return await this.failed(this.failure ?? err);
    } finally {
      await open?.dispose();
    }
  }

  /**
   * Streams runs into files rolled exactly at the bounds (a page is split across files where it crosses one, each
   * file recorded with the cursor of its own last run); returns whether the stream ended (not stopped) and the
   * last, open file.
   */
  private async writeFiles(): Promise<{ completed: boolean; open?: ParquetFileWriter }> {
    const columns = runParquetColumns(this.spec.fields, this.spec.formatVersion);
    const { tenantId, sessionId, startUs, endUs, filter, fields } = this.spec;
    const { fileMaxRows, fileMaxBytes } = this.options;
    const pages = this.deps.runs.stream({ tenantId, sessionId, startUs, endUs, filter, fields, after: this.cursor }, this.signal)[Symbol.asyncIterator]();
    let writer: ParquetFileWriter | undefined;
    try {
      for (;;) {
        const page = await this.nextPage(pages);
        if (!page) return { completed: !this.stopRequested, open: writer };
        if (this.stopRequested) break;
        let rest: NdjsonRows | undefined = page.rows;
        while (rest?.count && !this.stopRequested) {
          writer ??= await this.deps.parquet.open({ columns, compression: this.spec.compression });
          // An empty file takes a first run larger than the byte bound alone, rather than never.
          const { head, tail } = splitNdjsonRows(rest, fileMaxRows - writer.rows, fileMaxBytes - writer.stagedBytes, writer.rows === 0);
          if (head.count) {
            await writer.appendNdjson(head);
            this.lastCursor = tail ? cursorOfLastRun(head) : page.cursor;
          }
          // Full: at a bound, or the next run does not fit.
          if (tail || writer.rows >= fileMaxRows || writer.stagedBytes >= fileMaxBytes) {
            const full = writer;
            writer = undefined;
            await this.enqueue(full, this.lastCursor, false);
          }
          rest = tail;
        }
      }
      // Stopped early: leaving the stream cancels the call.
      await pages.return?.();
      return { completed: false, open: writer };
    } catch (err) {
      await writer?.dispose();
      throw err;
    }
  }

  private async nextPage(pages: AsyncIterator<RunPage>): Promise<RunPage | undefined> {
    try {
      const next = await pages.next();
      return next.done ? undefined : next.value;
    } catch (err) {
      // An abort of ours (a failed upload, shutdown) surfaces here as the stream's error: keep the real one.
      if (this.signal.aborted) throw this.failure ?? this.signal.reason;
      throw new RunSourceError(err);
    }
  }

  /**
   * Hands a full file over: it encodes now (one file at a time) while the stream goes on, then uploads and is
   * recorded after the file before it. At most two files are between roll and record, so disk use stays bounded.
   */
  private async enqueue(writer: ParquetFileWriter, cursor: RunCursor | undefined, done: boolean): Promise<void> {
    try {
      await this.encoding;
      await this.steps[this.steps.length - 2];
    } catch (err) {
      await writer.dispose();
      throw err;
    }
    if (this.stopRequested) {
      await writer.dispose();
      return;
    }
    const key = fileKey(this.folder, this.job.runId, this.nextIndex++);
    const encoded = writer.finish();
    this.encoding = encoded.then(
      () => undefined,
      () => undefined,
    );
    const step = this.record(writer, encoded, this.steps[this.steps.length - 1], key, cursor, done);
    // A failure stops the stream at once rather than at the next roll.
    step.catch((err: unknown) => {
      this.failure ??= err;
      this.abort.abort(err);
    });
    this.steps = [...this.steps.slice(-1), step];
  }

  /** One multipart upload → size check → record. The file is recorded only once it is in the bucket. */
  private async record(
    writer: ParquetFileWriter,
    encoded: Promise<ParquetFileOnDisk>,
    previous: Promise<void> | undefined,
    key: string,
    cursor: RunCursor | undefined,
    done: boolean,
  ): Promise<void> {
    let file: ExportedFile;
    try {
      const local = await encoded;
      await previous;
      // Cancelled while this file was encoding: stop at the boundary before it.
      if (this.stopRequested) return;
      await this.store.putFile(key, local, this.signal);
      const stored = await this.store.sizeOf(key, this.signal);
      if (stored !== undefined && stored !== local.bytes) throw new UploadVerificationError(key, local.bytes, stored);
      if (stored === undefined) this.deps.logger.info({ key }, 'export: destination does not allow reads, size not verified');
      file = { key, rows: local.rows, bytes: local.bytes };
    } finally {
      await writer.dispose();
    }
    this.rows += file.rows;
    this.bytes += file.bytes;
    this.cursor = cursor;
    this.filesWritten++;
    await this.report({ files: [file], done });
    if (done) this.doneReported = true;
  }

  private async report(update: Pick<ProgressReport, 'files' | 'done'>): Promise<void> {
    const { continueRun } = await call('ReportProgress', () =>
      this.deps.progress.progress({
        ...this.job,
        attempt: this.checkpoint.attempt,
        cursor: this.cursor,
        rowsWritten: this.rows,
        bytesWritten: this.bytes,
        ...update,
      }),
    );
    if (!continueRun && !update.done) this.stopRequested = true;
  }

  private outcome(status: 'completed' | 'cancelled'): PartitionOutcome {
    return { status, rows: this.rows, files: this.filesWritten };
  }

  private async failed(err: unknown): Promise<PartitionOutcome> {
    // Shutdown hands the job back untouched; the export service never hears of it.
    if (this.options.signal?.aborted) throw this.options.signal.reason;
    if (err instanceof ProgressServiceError) return gone(err);
    const { error, retryable } = describeFailure(err);
    this.deps.logger.warn({ ...this.job, attempt: this.checkpoint.attempt, err, retryable }, 'export: partition attempt failed');
    await call('ReportFailure', () => this.deps.progress.failure({ ...this.job, attempt: this.checkpoint.attempt, error, retryable })).catch(gone);
    return { status: 'failed', error, retryable };
  }
}
