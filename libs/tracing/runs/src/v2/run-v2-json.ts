import type { RunAttachmentUrls } from '../attachments/attachment-urls';
import { NEVER_SET_FIELDS, RUN_SELECT_FIELDS, type RunSelectField } from './run-select-fields';

/** A row read with {@link runV2Select}: the id and keyset position, plus whichever columns the selects needed. */
export interface RunV2Row {
  id: string;
  start_time_us: string | null;
  name?: string | null;
  run_type?: string | null;
  status?: string;
  start_time?: string | null;
  end_time?: string | null;
  latency_seconds?: number | null;
  first_token_time?: string | null;
  error?: string | null;
  extra?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  events?: unknown[] | null;
  inputs?: unknown;
  outputs?: unknown;
  serialized?: unknown;
  parent_run_ids?: string[] | null;
  session_id?: string | null;
  trace_id?: string | null;
  thread_id?: string | null;
  dotted_order?: string | null;
  is_root?: boolean;
  reference_example_id?: string | null;
  total_tokens?: string;
  prompt_tokens?: string;
  completion_tokens?: string;
  total_cost?: number | null;
  prompt_cost?: number | null;
  completion_cost?: number | null;
  tags?: string[] | null;
  feedback_stats?: Record<string, unknown> | null;
  trace_total_tokens?: string;
  trace_total_cost?: number | null;
  trace_first_token_time?: string | null;
}

/** A run as the v2 API shows it: the selected fields only. */
export type RunV2 = Record<string, unknown>;

/** Longest `*_preview` text, in characters. */
export const PREVIEW_CHARS = 500;

/**
 * Plain text of a payload for `inputs_preview`/`outputs_preview`: a string as it is, the value of an object's only
 * key when that is a string (`{"input": "..."}`), else compact JSON; cut to {@link PREVIEW_CHARS} with `…`.
 */
export function previewText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    const entries = typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : [];
    text = entries.length === 1 && typeof entries[0] === 'string' ? entries[0] : JSON.stringify(value);
  }
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

const upper = (value: string | null | undefined) => (typeof value === 'string' ? value.toUpperCase() : null);

/** One selected field's value, from the row (and the run's attachment links). */
function valueOf(field: RunSelectField, row: RunV2Row, attachments: RunAttachmentUrls | undefined): unknown {
  switch (field) {
    case 'ID':
      return row.id;
    case 'RUN_TYPE':
      return upper(row.run_type);
    case 'STATUS':
      return upper(row.status);
    case 'ERROR_PREVIEW':
      return previewText(row.error);
    case 'EXTRA':
      return row.extra ?? {};
    case 'METADATA':
      return row.metadata ?? {};
    case 'EVENTS':
      return row.events ?? [];
    case 'INPUTS':
      return row.inputs ?? {};
    case 'INPUTS_PREVIEW':
      return previewText(row.inputs);
    case 'OUTPUTS_PREVIEW':
      return previewText(row.outputs);
    case 'MANIFEST':
      return row.serialized ?? null;
    case 'PARENT_RUN_IDS':
      return row.parent_run_ids ?? [];
    case 'PROJECT_ID':
      return row.session_id ?? null;
    case 'TOTAL_TOKENS':
    case 'PROMPT_TOKENS':
    case 'COMPLETION_TOKENS':
      return Number(row[field.toLowerCase() as 'total_tokens'] ?? 0);
    case 'TAGS':
      return row.tags ?? [];
    case 'ATTACHMENTS':
      return Object.fromEntries([...(attachments ?? new Map())].map(([name, link]) => [name, link.url]));
    case 'IS_IN_DATASET':
      // No datasets here: no run was ever added to one.
      return false;
    case 'FEEDBACK_STATS':
      return row.feedback_stats ?? {};
    default:
      return row[field.toLowerCase() as keyof RunV2Row] ?? null;
  }
}

/** Output key of a selected field (the SDK's `Run` property names). */
const KEYS: Partial<Record<RunSelectField, string>> = { PROJECT_ID: 'project_id', MANIFEST: 'manifest' };

/** The run with the selected fields, in the SDK's order; `ID` is always there. */
export function runV2Json(row: RunV2Row, selects: ReadonlySet<RunSelectField>, attachments?: RunAttachmentUrls): RunV2 {
  const run: RunV2 = { id: row.id };
  for (const field of RUN_SELECT_FIELDS) {
    if (!selects.has(field) || NEVER_SET_FIELDS.has(field)) continue;
    run[KEYS[field] ?? field.toLowerCase()] = valueOf(field, row, attachments);
  }
  return run;
}

/** The trace-wide aggregates of a root run's row (`traces.query`), as far as they were selected. */
export function traceAggregatesJson(row: RunV2Row, selects: ReadonlySet<RunSelectField>): Record<string, unknown> | undefined {
  const aggregates: Record<string, unknown> = {};
  if (selects.has('TOTAL_TOKENS')) aggregates['total_tokens'] = Number(row.trace_total_tokens ?? 0);
  if (selects.has('TOTAL_COST')) aggregates['total_cost'] = row.trace_total_cost ?? null;
  if (selects.has('FIRST_TOKEN_TIME')) aggregates['first_token_time'] = row.trace_first_token_time ?? null;
  return Object.keys(aggregates).length > 0 ? aggregates : undefined;
}
