import type { FilterField } from './filter-ast';

/** A field stored in (or computed from) one row of `runs`: its SQL for table alias `a`, and the cast of its values. */
export interface ColumnField {
  sql: (a: string) => string;
  cast: 'uuid' | 'text' | 'timestamptz' | 'numeric' | 'boolean';
}

const column = (name: string, cast: ColumnField['cast']): ColumnField => ({ sql: (a) => `${a}.${name}`, cast });
const metadataText = (a: string, key: string) => `(${a}.extra->'metadata'->>'${key}')`;

/**
 * The only column names compiled SQL contains. `latency` is seconds between start and end (null while a run is
 * open); `thread_id` is the first of the metadata keys LangSmith groups threads by.
 */
export const COLUMN_FIELDS: Partial<Record<FilterField, ColumnField>> = {
  id: column('id', 'uuid'),
  trace_id: column('trace_id', 'uuid'),
  session_id: column('session_id', 'uuid'),
  parent_run_id: column('parent_run_id', 'uuid'),
  reference_example_id: column('reference_example_id', 'uuid'),
  name: column('name', 'text'),
  run_type: column('run_type', 'text'),
  status: column('status', 'text'),
  error: column('error', 'text'),
  trace_tier: column('trace_tier', 'text'),
  thread_id: {
    sql: (a) => `coalesce(${metadataText(a, 'thread_id')}, ${metadataText(a, 'session_id')}, ${metadataText(a, 'conversation_id')})`,
    cast: 'text',
  },
  start_time: column('start_time', 'timestamptz'),
  end_time: column('end_time', 'timestamptz'),
  first_token_time: column('first_token_time', 'timestamptz'),
  latency: { sql: (a) => `extract(epoch FROM (${a}.end_time - ${a}.start_time))`, cast: 'numeric' },
  total_tokens: column('total_tokens', 'numeric'),
  prompt_tokens: column('prompt_tokens', 'numeric'),
  completion_tokens: column('completion_tokens', 'numeric'),
  total_cost: column('total_cost', 'numeric'),
  prompt_cost: column('prompt_cost', 'numeric'),
  completion_cost: column('completion_cost', 'numeric'),
  is_root: column('is_root', 'boolean'),
};

/** Fields that bind together inside one `and(...)`: each family's key and value describe the same entry. */
export const PAIR_FAMILIES = {
  metadata: { key: 'metadata_key', value: 'metadata_value' },
  input: { key: 'input_key', value: 'input_value' },
  feedback: { key: 'feedback_key', value: 'feedback_score' },
} as const;

export type PairFamily = keyof typeof PAIR_FAMILIES;

export function pairFamilyOf(field: FilterField): { family: PairFamily; role: 'key' | 'value' } | undefined {
  for (const [family, { key, value }] of Object.entries(PAIR_FAMILIES) as [PairFamily, { key: string; value: string }][]) {
    if (field === key) return { family, role: 'key' };
    if (field === value) return { family, role: 'value' };
  }
  return undefined;
}
