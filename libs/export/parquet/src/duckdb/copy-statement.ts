import { DECIMAL_PRECISION, DECIMAL_SCALE, type ParquetColumn, type ParquetColumnType } from '../parquet-column';
import type { ParquetCodec } from '../parquet-format';

// How each column type is read from the staged JSON and what it becomes in the file. Timestamps arrive as
// epoch microseconds; `make_timestamp(BIGINT)` is exact, and the cast to TIMESTAMPTZ is exact because the
// connection's TimeZone is UTC.
const READ_AS: Record<ParquetColumnType, string> = {
  utf8: 'VARCHAR',
  json: 'VARCHAR',
  timestamp_micros_utc: 'BIGINT',
  timestamp_nanos_local: 'BIGINT',
  utf8_list: 'VARCHAR[]',
  int64: 'BIGINT',
  boolean: 'BOOLEAN',
  decimal: `DECIMAL(${DECIMAL_PRECISION}, ${DECIMAL_SCALE})`,
};

const WRITE_AS: Partial<Record<ParquetColumnType, (column: string) => string>> = {
  timestamp_micros_utc: (c) => `make_timestamp(${c})::TIMESTAMPTZ`,
  timestamp_nanos_local: (c) => `make_timestamp(${c})::TIMESTAMP_NS`,
};

const DUCKDB_CODEC: Record<ParquetCodec, string> = { UNCOMPRESSED: 'uncompressed', GZIP: 'gzip', SNAPPY: 'snappy', ZSTD: 'zstd' };

// DuckDB refuses JSON objects above `maximum_object_size` (default 16 MiB); larger runs raise the limit.
const DEFAULT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;
// Rows per row group: about this much uncompressed data, so a group's buffers stay small whatever the rows.
const ROW_GROUP_TARGET_BYTES = 32 * 1024 * 1024;
const MIN_ROW_GROUP_ROWS = 2_048;
const MAX_ROW_GROUP_ROWS = 122_880;

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface CopyStatementInput {
  columns: readonly ParquetColumn[];
  codec: ParquetCodec;
  stagePath: string;
  outputPath: string;
  /** Staged rows and bytes, to size row groups. */
  rows: number;
  bytes: number;
  /** Longest staged line in bytes (0 when none was long). */
  maxLineBytes: number;
}

function rowGroupRows(rows: number, bytes: number): number {
  const perRow = rows ? bytes / rows : 1;
  return Math.min(MAX_ROW_GROUP_ROWS, Math.max(MIN_ROW_GROUP_ROWS, Math.floor(ROW_GROUP_TARGET_BYTES / perRow)));
}

function maxObjectBytes(longestLine: number): number {
  let limit = DEFAULT_MAX_OBJECT_BYTES;
  while (limit <= longestLine) limit *= 2;
  return limit;
}

/** `COPY (SELECT ... FROM read_ndjson(stage)) TO output (FORMAT parquet, ...)` for the staged rows. */
export function copyStatement(input: CopyStatementInput): string {
  const read = input.columns.map((c) => `${literal(c.name)}: ${literal(READ_AS[c.type])}`).join(', ');
  const select = input.columns
    .map((c) => {
      const name = identifier(c.name);
      const write = WRITE_AS[c.type];
      return write ? `${write(name)} AS ${name}` : name;
    })
    .join(', ');
  const source =
    `read_ndjson(${literal(input.stagePath)}, columns = {${read}}, auto_detect = false, ` +
    `maximum_object_size = ${maxObjectBytes(input.maxLineBytes)})`;
  const options = `FORMAT parquet, COMPRESSION ${DUCKDB_CODEC[input.codec]}, ROW_GROUP_SIZE ${rowGroupRows(input.rows, input.bytes)}`;
  return `COPY (SELECT ${select} FROM ${source}) TO ${literal(input.outputPath)} (${options})`;
}
