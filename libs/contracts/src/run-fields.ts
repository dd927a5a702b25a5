import type { Run__Output } from './gen/tracing/v1/Run';

/**
 * The exportable run fields of the bulk-export spec, in Parquet column order; the values accepted
 * in an export's `export_fields` and in `StreamRunsRequest.fields`.
 */
export const EXPORTABLE_RUN_FIELDS = [
  'id',
  'tenant_id',
  'session_id',
  'trace_id',
  'parent_run_id',
  'parent_run_ids',
  'reference_example_id',
  'name',
  'run_type',
  'start_time',
  'end_time',
  'status',
  'is_root',
  'dotted_order',
  'trace_tier',
  'inputs',
  'outputs',
  'error',
  'extra',
  'events',
  'tags',
  'feedback_stats',
  'total_tokens',
  'prompt_tokens',
  'completion_tokens',
  'total_cost',
  'prompt_cost',
  'completion_cost',
  'first_token_time',
] as const satisfies readonly (keyof Run__Output)[];

export type ExportableRunField = (typeof EXPORTABLE_RUN_FIELDS)[number];

/** Fields holding JSON text (written as UTF8 columns). */
export const JSON_RUN_FIELDS = ['inputs', 'outputs', 'extra', 'events', 'feedback_stats', 'serialized'] as const satisfies readonly (keyof Run__Output)[];

/** Fields holding epoch microseconds (written as TIMESTAMP(MICROS, UTC)). */
export const TIMESTAMP_RUN_FIELDS = ['start_time', 'end_time', 'first_token_time'] as const satisfies readonly (keyof Run__Output)[];

export function isExportableRunField(name: string): name is ExportableRunField {
  return (EXPORTABLE_RUN_FIELDS as readonly string[]).includes(name);
}
