import type { FilterComparator, FilterField } from './filter-ast';

/**
 * What a field's values are: `uuid`, `text`, `time` (ISO-8601), `latency` (seconds or `"5s"`), `number`, `boolean`,
 * `json-object` (`has(metadata, '{"k": "v"}')`), and `key-or-value` (metadata/input pair values: strings, numbers
 * and booleans, compared as text).
 */
export type FieldValueKind = 'uuid' | 'text' | 'time' | 'latency' | 'number' | 'boolean' | 'key-or-value';

/** How a field may be used: its operators, its value kind, whether `eq/neq(field, null)` is allowed. */
export interface FieldSpec {
  ops: readonly FilterComparator[];
  value: FieldValueKind;
  nullable?: boolean;
}

const COMPARE = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
const UUID = { ops: ['eq', 'neq', 'in'], value: 'uuid' } as const;
const TEXT = { ops: ['eq', 'neq', 'in', 'like'], value: 'text' } as const;
const PAIR_KEY = { ops: ['eq', 'in', 'like'], value: 'text' } as const;
const PAIR_VALUE = { ops: ['eq', 'in', 'like'], value: 'key-or-value' } as const;

/** Every field of the filter language and how it may be used; the checker rejects anything else. */
export const FIELD_SPECS: Readonly<Record<FilterField, FieldSpec>> = {
  id: UUID,
  trace_id: { ...UUID, nullable: true },
  session_id: { ...UUID, nullable: true },
  parent_run_id: { ...UUID, nullable: true },
  reference_example_id: { ...UUID, nullable: true },
  name: { ...TEXT, nullable: true },
  run_type: { ...TEXT, nullable: true },
  status: TEXT,
  error: { ...TEXT, nullable: true },
  trace_tier: { ...TEXT, nullable: true },
  thread_id: { ...TEXT, nullable: true },
  start_time: { ops: COMPARE, value: 'time' },
  end_time: { ops: COMPARE, value: 'time', nullable: true },
  first_token_time: { ops: COMPARE, value: 'time', nullable: true },
  latency: { ops: COMPARE, value: 'latency' },
  total_tokens: { ops: COMPARE, value: 'number' },
  prompt_tokens: { ops: COMPARE, value: 'number' },
  completion_tokens: { ops: COMPARE, value: 'number' },
  total_cost: { ops: COMPARE, value: 'number', nullable: true },
  prompt_cost: { ops: COMPARE, value: 'number', nullable: true },
  completion_cost: { ops: COMPARE, value: 'number', nullable: true },
  tags: { ops: ['has'], value: 'text' },
  is_root: { ops: ['eq', 'neq'], value: 'boolean' },
  // has(metadata, '{"k": "v"}') takes a JSON object; exists(metadata, "k") a key.
  metadata: { ops: ['has', 'exists'], value: 'text' },
  metadata_key: PAIR_KEY,
  metadata_value: PAIR_VALUE,
  input_key: PAIR_KEY,
  input_value: PAIR_VALUE,
  feedback_key: PAIR_KEY,
  feedback_score: { ops: [...COMPARE, 'in'], value: 'number' },
};

/** The names of all filter fields. */
export const FILTER_FIELDS = Object.keys(FIELD_SPECS) as readonly FilterField[];

export const isFilterField = (name: string): name is FilterField => Object.hasOwn(FIELD_SPECS, name);
