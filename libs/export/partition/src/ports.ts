import type { S3DestinationConnection } from '@platform/export-s3';
import type { NdjsonRows } from '@platform/export-parquet';
import type { ExportedFile, PartitionJob, RunCheckpoint, RunCursor } from './partition.types';

/** Which runs to read: a project's window, filtered, with the requested fields, after `after`. */
export interface RunQuery {
  tenantId: string;
  sessionId: string;
  startUs: string;
  endUs: string;
  filter: string;
  fields: string[];
  after?: RunCursor;
}

/** Runs in (start_time, id) order, as NDJSON lines; `cursor` is the position of the page's last run. */
export interface RunPage {
  rows: NdjsonRows;
  cursor: RunCursor;
}

/** Where runs are read from (tracing's StreamRuns). Reading is pulled, so a slow consumer slows the source. */
export interface RunSource {
  stream(query: RunQuery, signal: AbortSignal): AsyncIterable<RunPage>;
}

export interface ProgressReport extends PartitionJob {
  attempt: number;
  /** Cursor of the last run in the files recorded so far. */
  cursor?: RunCursor;
  /** Totals across all attempts. */
  rowsWritten: number;
  bytesWritten: number;
  /** Files completed since the previous report. */
  files: ExportedFile[];
  done: boolean;
}

export interface FailureReport extends PartitionJob {
  attempt: number;
  error: string;
  retryable: boolean;
}

/**
 * The export service, which owns the run's checkpoint and status. A stale attempt is answered with a
 * `ConflictError`, an unknown run with a `NotFoundError`; other errors mean it could not be reached.
 */
export interface ProgressReporter {
  checkpoint(job: PartitionJob): Promise<RunCheckpoint>;
  /** Records files and the cursor; resolves `continueRun: false` when the export was cancelled. */
  progress(report: ProgressReport): Promise<{ continueRun: boolean }>;
  failure(report: FailureReport): Promise<void>;
}

/** A local file to upload. */
export interface LocalFile {
  path: string;
  bytes: number;
}

/** The destination bucket, as the worker uses it. Failures are `ObjectStoreError`s. */
export interface ObjectStore {
  /** Uploads the file with one multipart upload, aborting the upload on any failure. */
  putFile(key: string, file: LocalFile, signal: AbortSignal): Promise<void>;
  /** The stored object's size, or `undefined` when the destination does not allow reads. */
  sizeOf(key: string, signal: AbortSignal): Promise<number | undefined>;
  close(): void;
}

/** The store of a destination, for the workspace `tenantId` (which decides whether ambient credentials may be used). */
export type ObjectStoreFactory = (destination: S3DestinationConnection, tenantId: string) => ObjectStore;
