import { isoMicros } from '../run-row';
import type { RunSelectField } from './run-select-fields';

/** Which token and cost columns a read shows: the run's own usage, or its subtree's (`include_subtree_usage`). */
export interface RunColumnOptions {
  subtreeUsage: boolean;
}

const metadataText = (key: string) => `(r.extra->'metadata'->>'${key}')`;
// Earliest first token of the run and its descendants (whose ancestors include it).
const SUBTREE_FIRST_TOKEN = `(SELECT min(d.first_token_time) FROM runs d WHERE d.tenant_id = r.tenant_id AND d.trace_id = r.trace_id
  AND d.has_create AND (d.id = r.id OR r.id = ANY(d.parent_run_ids)))`;

/** The SQL (over `FROM runs r`) each selectable field reads; fields without any are computed or never set. */
function columnsOf(field: RunSelectField, options: RunColumnOptions): string[] {
  const usage = (column: string) => (options.subtreeUsage ? `r.${column}` : `r.own_${column}`);
  switch (field) {
    case 'NAME':
      return ['r.name'];
    case 'RUN_TYPE':
      return ['r.run_type'];
    case 'STATUS':
      return ['r.status'];
    case 'START_TIME':
      return [`${isoMicros('r.start_time')} AS start_time`];
    case 'END_TIME':
      return [`${isoMicros('r.end_time')} AS end_time`];
    case 'LATENCY_SECONDS':
      return ['extract(epoch FROM (r.end_time - r.start_time))::float8 AS latency_seconds'];
    case 'FIRST_TOKEN_TIME':
      return [`${isoMicros(options.subtreeUsage ? SUBTREE_FIRST_TOKEN : 'r.first_token_time')} AS first_token_time`];
    case 'ERROR':
    case 'ERROR_PREVIEW':
      return ['r.error'];
    case 'EXTRA':
      return ['r.extra'];
    case 'METADATA':
      return [`r.extra->'metadata' AS metadata`];
    case 'EVENTS':
      return ['r.events'];
    case 'INPUTS':
    case 'INPUTS_PREVIEW':
      return ['r.inputs'];
    case 'OUTPUTS':
    case 'OUTPUTS_PREVIEW':
      return ['r.outputs'];
    case 'MANIFEST':
      return ['r.serialized'];
    case 'PARENT_RUN_IDS':
      return ['r.parent_run_ids::text[] AS parent_run_ids'];
    case 'PROJECT_ID':
      return ['r.session_id::text AS session_id'];
    case 'TRACE_ID':
      return ['r.trace_id::text AS trace_id'];
    case 'THREAD_ID':
      // The metadata keys LangSmith groups threads by, as the filter language's `thread_id`.
      return [`coalesce(${metadataText('thread_id')}, ${metadataText('session_id')}, ${metadataText('conversation_id')}) AS thread_id`];
    case 'DOTTED_ORDER':
      return ['r.dotted_order'];
    case 'IS_ROOT':
      return ['r.is_root'];
    case 'REFERENCE_EXAMPLE_ID':
      return ['r.reference_example_id::text AS reference_example_id'];
    case 'TOTAL_TOKENS':
    case 'PROMPT_TOKENS':
    case 'COMPLETION_TOKENS': {
      const column = field.toLowerCase();
      return [`${usage(column)}::text AS ${column}`];
    }
    case 'TOTAL_COST':
    case 'PROMPT_COST':
    case 'COMPLETION_COST': {
      const column = field.toLowerCase();
      return [`${usage(column)}::float8 AS ${column}`];
    }
    case 'TAGS':
      return ['r.tags'];
    case 'FEEDBACK_STATS':
      return ['r.feedback_stats'];
    default:
      return [];
  }
}

/** Trace-wide aggregates of a root run (`traces.query`): its subtree is the whole trace. */
const TRACE_AGGREGATE_COLUMNS = [
  'r.total_tokens::text AS trace_total_tokens',
  'r.total_cost::float8 AS trace_total_cost',
  `${isoMicros(`(SELECT min(d.first_token_time) FROM runs d WHERE d.tenant_id = r.tenant_id AND d.trace_id = r.trace_id AND d.has_create)`)} AS trace_first_token_time`,
];

/**
 * The SELECT list over `runs r` for a v2 read: the id and the keyset position always, then what the selected
 * fields need (and the trace aggregates, for traces), each column once.
 */
export function runV2Select(selects: Iterable<RunSelectField>, options: RunColumnOptions & { traceAggregates?: boolean }): string {
  const columns = new Set(['r.id::text AS id', '(extract(epoch FROM r.start_time) * 1000000)::bigint::text AS start_time_us']);
  for (const field of selects) for (const column of columnsOf(field, options)) columns.add(column);
  if (options.traceAggregates) for (const column of TRACE_AGGREGATE_COLUMNS) columns.add(column);
  return [...columns].join(', ');
}
