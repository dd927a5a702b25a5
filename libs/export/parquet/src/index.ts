export * from './parquet-format';
export * from './parquet-column';
export * from './run-columns';
export type { ParquetFileOnDisk, ParquetFileOptions, ParquetFileWriter, ParquetWriterFactory } from './parquet-file-writer';
export { createDuckDbParquetWriterFactory, type DuckDbParquetOptions } from './duckdb/duckdb-parquet-writer';
