import type { S3DestinationConnection } from '@platform/export-s3';
import type { Compression, FormatVersion } from '@platform/export-parquet';

/** The job: one export run (a date partition) of one export. */
export interface PartitionJob {
  exportId: string;
  runId: string;
}

/** Position of a run in (start_time, id) order; `startTime` in epoch microseconds (decimal string). */
export interface RunCursor {
  startTime: string;
  id: string;
}

/** A Parquet file whose upload completed and was recorded. */
export interface ExportedFile {
  key: string;
  rows: number;
  bytes: number;
}

/** What to export and where. Times are epoch microseconds (decimal strings); the window is [start, end). */
export interface PartitionSpec {
  tenantId: string;
  sessionId: string;
  startUs: string;
  endUs: string;
  /** Filter query language expression; "" = all runs. */
  filter: string;
  /** Exportable field names; empty = all. */
  fields: string[];
  formatVersion: FormatVersion;
  compression: Compression;
  destination: S3DestinationConnection;
}

/** The export service's record of a run, read when a worker (re)starts it. */
export interface RunCheckpoint {
  /** False when the export was cancelled or the run is final: do not start. */
  continueRun: boolean;
  /** The attempt to report as. */
  attempt: number;
  /** Resume strictly after this run; absent = from the window start. */
  cursor?: RunCursor;
  rowsWritten: number;
  bytesWritten: number;
  files: ExportedFile[];
  /** Absent when `continueRun` is false. */
  spec?: PartitionSpec;
}
