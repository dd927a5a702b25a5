export * from './parquet-format';
export * from './parquet-column';
export * from './run-columns';
export type { NdjsonRows, ParquetFileOnDisk, ParquetFileOptions, ParquetFileWriter, ParquetWriterFactory } from './parquet-file-writer';
export { lastNdjsonRow, splitNdjsonRows, toNdjsonRows } from './ndjson-rows';
export { createDuckDbParquetWriterFactory, type DuckDbParquetOptions } from './duckdb/duckdb-parquet-writer';
export { removeDeadStagingFolders, STAGING_PREFIX, watchDeadStagingFolders, type StaleStagingOptions, type StagingSweep } from './staging-folders';
