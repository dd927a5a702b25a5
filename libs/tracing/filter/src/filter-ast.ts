/** A literal value in a filter: a string, number, boolean or null. */
export type FilterScalar = string | number | boolean | null;

/** Comparison operators of the filter language. */
export type FilterComparator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'in' | 'has' | 'exists';

/** The fields a filter may name (LangSmith's run filter fields plus a few cheap extras). */
export type FilterField =
  | 'id'
  | 'trace_id'
  | 'session_id'
  | 'parent_run_id'
  | 'reference_example_id'
  | 'name'
  | 'run_type'
  | 'status'
  | 'error'
  | 'trace_tier'
  | 'thread_id'
  | 'start_time'
  | 'end_time'
  | 'first_token_time'
  | 'latency'
  | 'total_tokens'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'total_cost'
  | 'prompt_cost'
  | 'completion_cost'
  | 'tags'
  | 'is_root'
  | 'metadata'
  | 'metadata_key'
  | 'metadata_value'
  | 'input_key'
  | 'input_value'
  | 'feedback_key'
  | 'feedback_score';

/**
 * One checked comparison, e.g. `gt(latency, "5s")`. `value` is already normalised for its field: times are ISO
 * strings with a zone, latencies are seconds, `in` holds an array, `has(metadata, ...)` holds the parsed JSON object.
 */
export interface FilterCondition {
  type: 'condition';
  op: FilterComparator;
  field: FilterField;
  value: FilterScalar | FilterScalar[] | Record<string, unknown>;
  /** 0-based offset of the call in the filter text. */
  position: number;
}

/** A checked filter expression: the parser's output and the compiler's input. */
export type FilterExpression =
  | { type: 'and'; args: FilterExpression[]; position: number }
  | { type: 'or'; args: FilterExpression[]; position: number }
  | { type: 'not'; arg: FilterExpression; position: number }
  | { type: 'search'; text: string; position: number }
  | FilterCondition;
