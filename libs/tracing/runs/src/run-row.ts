/**
 * A run as read from the `runs` table with {@link RUN_SELECT}. Times come as ISO-8601 UTC strings with
 * microseconds (`2024-05-01T12:00:00.123456Z`) and as epoch microseconds (`*_us`, decimal strings), so neither
 * the API nor the exporters lose the precision the SDKs send.
 */
export interface RunRow {
  tenant_id: string;
  id: string;
  session_id: string | null;
  trace_id: string | null;
  parent_run_id: string | null;
  parent_run_ids: string[] | null;
  dotted_order: string | null;
  is_root: boolean;
  name: string | null;
  run_type: string | null;
  status: string;
  start_time: string | null;
  start_time_us: string | null;
  end_time: string | null;
  first_token_time: string | null;
  inputs: unknown;
  outputs: unknown;
  error: string | null;
  extra: unknown;
  events: unknown;
  serialized: unknown;
  tags: string[] | null;
  reference_example_id: string | null;
  trace_tier: string | null;
  feedback_stats: unknown;
  prompt_tokens: string;
  completion_tokens: string;
  total_tokens: string;
  /** Decimal strings, or null when no cost is known. */
  prompt_cost: string | null;
  completion_cost: string | null;
  total_cost: string | null;
}

/** A timestamptz column (or expression) as an ISO-8601 UTC string with microseconds. */
export const isoMicros = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The SELECT list producing {@link RunRow} from table alias `r` (`FROM runs r`). Column names come from this
 * constant only; values in queries are always bound parameters.
 */
export const RUN_SELECT = [
  'r.tenant_id::text AS tenant_id',
  'r.id::text AS id',
  'r.session_id::text AS session_id',
  'r.trace_id::text AS trace_id',
  'r.parent_run_id::text AS parent_run_id',
  'r.parent_run_ids::text[] AS parent_run_ids',
  'r.dotted_order',
  'r.is_root',
  'r.name',
  'r.run_type',
  'r.status',
  `${isoMicros('r.start_time')} AS start_time`,
  `(extract(epoch FROM r.start_time) * 1000000)::bigint::text AS start_time_us`,
  `${isoMicros('r.end_time')} AS end_time`,
  `${isoMicros('r.first_token_time')} AS first_token_time`,
  'r.inputs',
  'r.outputs',
  'r.error',
  'r.extra',
  'r.events',
  'r.serialized',
  'r.tags',
  'r.reference_example_id::text AS reference_example_id',
  'r.trace_tier',
  'r.feedback_stats',
  'r.prompt_tokens::text AS prompt_tokens',
  'r.completion_tokens::text AS completion_tokens',
  'r.total_tokens::text AS total_tokens',
  'r.prompt_cost::text AS prompt_cost',
  'r.completion_cost::text AS completion_cost',
  'r.total_cost::text AS total_cost',
].join(', ');
