import type { ParquetColumn, ParquetRow } from './parquet-column';
import type { Compression } from './parquet-format';

/**
 * Rows already serialized as newline-delimited JSON: one JSON object per row (column name → value, as a
 * {@link ParquetRow}; a `null` value is NULL), UTF-8, every line ended by "\n". Tracing's StreamRuns sends runs
 * in this form (`RUN_ENCODING_NDJSON`), so they reach the file without being decoded or re-serialized here.
 */
export interface NdjsonRows {
  lines: Buffer;
  /** Number of lines (rows). */
  count: number;
  /** Bytes of the longest line, its newline excluded. */
  maxLineBytes: number;
}

/** A finished Parquet file on local disk, ready to upload. */
export interface ParquetFileOnDisk {
  path: string;
  bytes: number;
  rows: number;
}

export interface ParquetFileOptions {
  columns: readonly ParquetColumn[];
  compression: Compression;
}

/**
 * One Parquet file being written: rows go in with `append`, `finish` encodes and returns the file,
 * `dispose` removes everything it left on disk (call it after the upload, or instead of `finish`).
 */
export interface ParquetFileWriter {
  /** Rows appended so far. */
  readonly rows: number;
  /** Bytes of row data taken so far: the measure a caller rolls files on (the Parquet file is smaller). */
  readonly stagedBytes: number;
  append(rows: readonly ParquetRow[]): Promise<void>;
  appendNdjson(rows: NdjsonRows): Promise<void>;
  finish(): Promise<ParquetFileOnDisk>;
  dispose(): Promise<void>;
}

/** Opens Parquet files; one per process, shared by concurrent jobs. */
export interface ParquetWriterFactory {
  open(options: ParquetFileOptions): Promise<ParquetFileWriter>;
  close(): Promise<void>;
}
