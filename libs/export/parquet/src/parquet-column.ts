/**
 * Column types a Parquet writer of this lib knows, with the physical and logical Parquet type each becomes,
 * and the JavaScript value a row carries for it (`null`/absent = NULL):
 *
 * | type | Parquet | row value |
 * |---|---|---|
 * | `utf8` | BYTE_ARRAY STRING | string |
 * | `json` | BYTE_ARRAY STRING (the JSON text) | string |
 * | `timestamp_micros_utc` | INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true) | epoch µs, decimal string or safe integer |
 * | `timestamp_nanos_local` | INT64 TIMESTAMP(NANOS, isAdjustedToUTC=false) | epoch µs, decimal string or safe integer |
 * | `utf8_list` | LIST<BYTE_ARRAY STRING> (3-level) | string[] |
 * | `int64` | INT64 | decimal string or safe integer |
 * | `boolean` | BOOLEAN | boolean |
 * | `decimal` | FIXED_LEN_BYTE_ARRAY DECIMAL(20, 10) | decimal string, e.g. "0.000123" |
 */
export type ParquetColumnType =
  | 'utf8'
  | 'json'
  | 'timestamp_micros_utc'
  | 'timestamp_nanos_local'
  | 'utf8_list'
  | 'int64'
  | 'boolean'
  | 'decimal';

export interface ParquetColumn {
  name: string;
  type: ParquetColumnType;
}

/**
 * One row as handed to a writer: an object of column name → value (see {@link ParquetColumnType}). Keys that
 * are not columns are ignored, so rows decoded from gRPC can be passed as they are.
 */
export type ParquetRow = object;

/** Precision and scale of `decimal` columns: those of the tracing store's cost columns. */
export const DECIMAL_PRECISION = 20;
export const DECIMAL_SCALE = 10;
