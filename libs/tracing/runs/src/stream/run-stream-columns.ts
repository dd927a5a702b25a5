import { EXPORTABLE_RUN_FIELDS, type ExportableRunField } from '@platform/contracts';

// Epoch microseconds as a decimal string: `extract` returns numeric, so nothing is rounded.
const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

/**
 * The SELECT expression of each exportable field over table alias `r`, already in the proto `Run`
 * encoding: ids, int64s and decimals as text, JSON as its text (passed through, never parsed here),
 * lists as arrays. SQL column text comes from this map only. A row of these, as JSON, is also an NDJSON line.
 */
export const RUN_STREAM_COLUMNS: Readonly<Record<ExportableRunField, string>> = {
  id: 'r.id::text',
  tenant_id: 'r.tenant_id::text',
  session_id: 'r.session_id::text',
  trace_id: 'r.trace_id::text',
  parent_run_id: 'r.parent_run_id::text',
  // Lists are never null: a message's repeated field has no null either (it reads as empty).
  parent_run_ids: "coalesce(r.parent_run_ids::text[], '{}')",
  reference_example_id: 'r.reference_example_id::text',
  name: 'r.name',
  run_type: 'r.run_type',
  start_time: micros('r.start_time'),
  end_time: micros('r.end_time'),
  status: 'r.status',
  is_root: 'r.is_root',
  dotted_order: 'r.dotted_order',
  trace_tier: 'r.trace_tier',
  inputs: 'r.inputs::text',
  outputs: 'r.outputs::text',
  error: 'r.error',
  extra: 'r.extra::text',
  events: 'r.events::text',
  tags: "coalesce(r.tags, '{}')",
  feedback_stats: 'r.feedback_stats::text',
  total_tokens: 'r.total_tokens::text',
  prompt_tokens: 'r.prompt_tokens::text',
  completion_tokens: 'r.completion_tokens::text',
  // trim_scale: numeric(20,10) would print "0.0001230000".
  total_cost: 'trim_scale(r.total_cost)::text',
  prompt_cost: 'trim_scale(r.prompt_cost)::text',
  completion_cost: 'trim_scale(r.completion_cost)::text',
  first_token_time: micros('r.first_token_time'),
};

/** The requested fields plus the cursor's, in export column order; all fields when none are requested. */
export function selectedRunFields(requested: readonly ExportableRunField[]): ExportableRunField[] {
  if (requested.length === 0) return [...EXPORTABLE_RUN_FIELDS];
  const wanted = new Set<ExportableRunField>(['id', 'start_time', ...requested]);
  return EXPORTABLE_RUN_FIELDS.filter((field) => wanted.has(field));
}
