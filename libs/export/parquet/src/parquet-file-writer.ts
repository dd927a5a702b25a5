import type { ParquetColumn, ParquetRow } from './parquet-column';
import type { Compression } from './parquet-format';

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
  finish(): Promise<ParquetFileOnDisk>;
  dispose(): Promise<void>;
}

/** Opens Parquet files; one per process, shared by concurrent jobs. */
export interface ParquetWriterFactory {
  open(options: ParquetFileOptions): Promise<ParquetFileWriter>;
  close(): Promise<void>;
}
