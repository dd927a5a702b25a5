import type { ParquetColumn, ParquetColumnType } from './parquet-column';
import type { FormatVersion } from './parquet-format';

type RunColumnKind = Exclude<ParquetColumnType, 'timestamp_micros_utc' | 'timestamp_nanos_local'> | 'timestamp';

// The exportable run fields of the bulk-export spec in column order (the same list as the contract's
// EXPORTABLE_RUN_FIELDS, which a spec of the partition lib checks this table against).
const RUN_COLUMN_KINDS = {
  id: 'utf8',
  tenant_id: 'utf8',
  session_id: 'utf8',
  trace_id: 'utf8',
  parent_run_id: 'utf8',
  parent_run_ids: 'utf8_list',
  reference_example_id: 'utf8',
  name: 'utf8',
  run_type: 'utf8',
  start_time: 'timestamp',
  end_time: 'timestamp',
  status: 'utf8',
  is_root: 'boolean',
  dotted_order: 'utf8',
  trace_tier: 'utf8',
  inputs: 'json',
  outputs: 'json',
  error: 'utf8',
  extra: 'json',
  events: 'json',
  tags: 'utf8_list',
  feedback_stats: 'json',
  total_tokens: 'int64',
  prompt_tokens: 'int64',
  completion_tokens: 'int64',
  total_cost: 'decimal',
  prompt_cost: 'decimal',
  completion_cost: 'decimal',
  first_token_time: 'timestamp',
} as const satisfies Record<string, RunColumnKind>;

export type RunColumnName = keyof typeof RUN_COLUMN_KINDS;

/** Every run column, in Parquet column order. */
export const RUN_COLUMN_NAMES = Object.keys(RUN_COLUMN_KINDS) as RunColumnName[];

// v2_beta writes what Spark, Glue, BigQuery and DuckDB expect: µs since the epoch, UTC-adjusted. v1 keeps
// the reference product's legacy timestamps (nanoseconds, not UTC-adjusted; see the compat notes), which
// some readers reject; everything else is the same in both.
const TIMESTAMP_TYPE: Record<FormatVersion, ParquetColumnType> = {
  v1: 'timestamp_nanos_local',
  v2_beta: 'timestamp_micros_utc',
};

/**
 * The Parquet columns of an export: the requested run fields (all when `fields` is empty) in the fixed
 * column order, typed for `formatVersion`. Throws a `RangeError` for a name that is not a run column.
 */
export function runParquetColumns(fields: readonly string[], formatVersion: FormatVersion): ParquetColumn[] {
  const unknown = fields.filter((f) => !(f in RUN_COLUMN_KINDS));
  if (unknown.length) throw new RangeError(`Not exportable run fields: ${unknown.join(', ')}`);
  const wanted = new Set(fields.length ? fields : RUN_COLUMN_NAMES);
  return RUN_COLUMN_NAMES.filter((name) => wanted.has(name)).map((name) => {
    const kind: RunColumnKind = RUN_COLUMN_KINDS[name];
    return { name, type: kind === 'timestamp' ? TIMESTAMP_TYPE[formatVersion] : kind };
  });
}
