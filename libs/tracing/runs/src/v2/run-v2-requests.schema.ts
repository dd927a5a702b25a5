import { z } from 'zod';
import { queryTime, uuid } from '../query/run-query-request.schema';
import { RUN_TYPES } from '../ingest/run-payload.schema';
import { RUN_SELECT_FIELDS } from './run-select-fields';

// Bodies and queries of the v2 read API as the `langsmith` SDK 0.12 sends them (`client.runs.query()`,
// `client.runs.retrieve()`, `client.traces.query()`, `client.traces.listRuns()`). Unknown fields are ignored, as
// newer SDKs may send more; unset fields may also arrive as null.

/** The largest `page_size`. */
export const MAX_V2_PAGE_SIZE = 1000;
export const DEFAULT_V2_PAGE_SIZE = 100;

const selectField = z.enum(RUN_SELECT_FIELDS);
// Repeated query parameters arrive as a list, a single one as a string.
const repeated = <T extends z.ZodType>(item: T) => z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item));
// `RunType` is upper case in v2 (`LLM`); the lower case of v1 is accepted too.
const runType = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(RUN_TYPES));

const page = {
  cursor: z.string().min(1).nullish(),
  page_size: z.number().int().min(1).max(MAX_V2_PAGE_SIZE).nullish(),
};
const feedbackWindow = {
  min_feedback_modified_at: queryTime.nullish(),
  max_feedback_modified_at: queryTime.nullish(),
};
const ai = { ai_search: z.string().nullish() };

/** `POST /api/v2/runs/query`. */
export const runsQueryV2Schema = z.object({
  project_ids: z.array(uuid).min(1).nullish(),
  reference_dataset_id: uuid.nullish(),
  min_start_time: queryTime.nullish(),
  max_start_time: queryTime.nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  has_error: z.boolean().nullish(),
  ids: z.array(uuid).nullish(),
  is_root: z.boolean().nullish(),
  run_type: runType.nullish(),
  trace_id: uuid.nullish(),
  reference_examples: z.array(uuid).nullish(),
  selects: z.array(selectField).nullish(),
  include_subtree_usage: z.boolean().nullish(),
  ...feedbackWindow,
  ...ai,
  ...page,
});
export type RunsQueryV2Request = z.infer<typeof runsQueryV2Schema>;

/** `POST /api/v2/traces/query`. */
export const tracesQueryV2Schema = z.object({
  project_id: uuid,
  min_start_time: queryTime.nullish(),
  max_start_time: queryTime.nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  trace_ids: z.array(uuid).nullish(),
  selects: z.array(selectField).nullish(),
  ...feedbackWindow,
  ...ai,
  ...page,
});
export type TracesQueryV2Request = z.infer<typeof tracesQueryV2Schema>;

/** The query of `GET /api/v2/runs/{run_id}`. */
export const runRetrieveV2Schema = z.object({
  project_id: uuid,
  selects: repeated(selectField).optional(),
  // A hint that lets LangSmith find the run faster; here a run is found by id alone.
  start_time: queryTime.optional(),
});
export type RunRetrieveV2Request = z.infer<typeof runRetrieveV2Schema>;

/** The query of `GET /api/v2/traces/{trace_id}/runs`. */
export const traceRunsV2Schema = z.object({
  project_id: uuid,
  filter: z.string().optional(),
  min_start_time: queryTime.optional(),
  max_start_time: queryTime.optional(),
  selects: repeated(selectField).optional(),
});
export type TraceRunsV2Request = z.infer<typeof traceRunsV2Schema>;
