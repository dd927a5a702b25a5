import { NotFoundError, ValidationError } from '@platform/errors';
import { attachmentUrls, type AttachmentUrlDeps, type RunAttachmentUrls } from '../attachments/attachment-urls';
import { encodeRunQueryCursor } from '../query/run-query-cursor';
import type { RunQuery, RunQueryReader } from '../query/run-query.types';
import { runV2Json, traceAggregatesJson, type RunV2, type RunV2Row } from './run-v2-json';
import { runV2Select, type RunColumnOptions } from './run-v2.columns';
import type { RunSelectField } from './run-select-fields';
import type { RunRetrieveV2Request, RunsQueryV2Request, TraceRunsV2Request, TracesQueryV2Request } from './run-v2-requests.schema';
import { commonV2Query, startWindow } from './run-v2-query';

export interface ReadRunsV2Deps {
  reader: RunQueryReader;
  /** Where `ATTACHMENTS` links come from. */
  attachments: AttachmentUrlDeps;
  now?: () => number;
}

/** Who asks, and the public base URL attachment links are made under. */
export interface V2Caller {
  tenantId: string;
  baseUrl: string;
}

/** A page of the v2 API: `next_cursor` is null on the last page. */
export interface V2Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface TraceV2 {
  root_run: RunV2;
  trace_aggregates?: Record<string, unknown>;
  query_metadata: null;
}

// Fields `traces.query` shows under `trace_aggregates` rather than on the root run.
const AGGREGATE_FIELDS: ReadonlySet<RunSelectField> = new Set(['TOTAL_TOKENS', 'TOTAL_COST', 'FIRST_TOKEN_TIME']);

/** Reads rows for a query and renders them with the selected fields (and attachment links when selected). */
async function readRuns(
  deps: ReadRunsV2Deps,
  caller: V2Caller,
  read: { query: RunQuery; take: number | undefined; selects: ReadonlySet<RunSelectField>; columns: RunColumnOptions & { traceAggregates?: boolean } },
) {
  const rows = await deps.reader.find<RunV2Row>(read.query, read.take, runV2Select(read.selects, read.columns));
  const links = read.selects.has('ATTACHMENTS')
    ? await attachmentUrls(deps.attachments, caller.tenantId, rows.map((r) => r.id), caller.baseUrl)
    : new Map<string, RunAttachmentUrls>();
  return { rows, render: (row: RunV2Row) => runV2Json(row, read.selects, links.get(row.id)) };
}

/** The rows of one page (read one past the limit) and the cursor of the next, if any. */
function paged<R extends RunV2Row>(rows: R[], limit: number): { page: R[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next = rows.length > limit && last?.start_time_us ? encodeRunQueryCursor({ startTimeUs: last.start_time_us, id: last.id }) : null;
  return { page, next };
}

/** `POST /api/v2/runs/query`: runs of the given projects in a start-time window, newest first, with their selected fields. */
export async function queryRunsV2(deps: ReadRunsV2Deps, caller: V2Caller, body: RunsQueryV2Request): Promise<V2Page<RunV2>> {
  if (!body.project_ids === !body.reference_dataset_id) {
    throw ValidationError.at(['body', 'project_ids'], 'Set exactly one of project_ids and reference_dataset_id');
  }
  // Datasets live in LangSmith's evaluation product, which this platform does not have: no dataset exists here.
  if (body.reference_dataset_id) throw new NotFoundError(`Dataset ${body.reference_dataset_id} not found`);
  const now = deps.now?.() ?? Date.now();
  const query: RunQuery = {
    tenantId: caller.tenantId,
    sessionIds: body.project_ids ?? undefined,
    ids: body.ids ?? undefined,
    traceId: body.trace_id ?? undefined,
    referenceExampleIds: body.reference_examples ?? undefined,
    runType: body.run_type ?? undefined,
    isRoot: body.is_root ?? undefined,
    error: body.has_error ?? undefined,
    ...startWindow(body, now),
    filter: body.filter ?? undefined,
    traceFilter: body.trace_filter ?? undefined,
    treeFilter: body.tree_filter ?? undefined,
    order: 'desc',
    ...commonV2Query(body, { filter: body.filter, trace_filter: body.trace_filter, tree_filter: body.tree_filter }),
  };
  const selects = new Set(body.selects ?? []);
  const columns = { subtreeUsage: body.include_subtree_usage ?? false };
  const { rows, render } = await readRuns(deps, caller, { query, take: query.limit + 1, selects, columns });
  const { page, next } = paged(rows, query.limit);
  return { items: page.map((row) => render(row)), next_cursor: next };
}

/** `GET /api/v2/runs/{run_id}?project_id=`: one run of that project, or 404. */
export async function retrieveRunV2(deps: ReadRunsV2Deps, caller: V2Caller, runId: string, params: RunRetrieveV2Request): Promise<RunV2> {
  const query: RunQuery = { tenantId: caller.tenantId, sessionIds: [params.project_id], ids: [runId], order: 'desc', limit: 1 };
  const selects = new Set(params.selects ?? []);
  const { rows, render } = await readRuns(deps, caller, { query, take: 1, selects, columns: { subtreeUsage: false } });
  if (!rows[0]) throw new NotFoundError(`Run ${runId} not found in project ${params.project_id}`);
  return render(rows[0]);
}

/**
 * `POST /api/v2/traces/query`: the root runs of a project's traces in a start-time window, newest first, each with
 * the trace-wide aggregates that were selected (`total_tokens`, `total_cost`, `first_token_time`).
 */
export async function queryTracesV2(deps: ReadRunsV2Deps, caller: V2Caller, body: TracesQueryV2Request): Promise<V2Page<TraceV2>> {
  const now = deps.now?.() ?? Date.now();
  const query: RunQuery = {
    tenantId: caller.tenantId,
    sessionIds: [body.project_id],
    // A root run's id is its trace's id.
    ids: body.trace_ids ?? undefined,
    isRoot: true,
    ...startWindow(body, now),
    // The root run is the run here, so the trace filter is a filter on it.
    filter: body.trace_filter ?? undefined,
    treeFilter: body.tree_filter ?? undefined,
    order: 'desc',
    ...commonV2Query(body, { trace_filter: body.trace_filter, tree_filter: body.tree_filter }),
  };
  const selects = new Set(body.selects ?? []);
  const rootFields = new Set([...selects].filter((field) => !AGGREGATE_FIELDS.has(field)));
  const columns = { subtreeUsage: false, traceAggregates: true };
  const { rows, render } = await readRuns(deps, caller, { query, take: query.limit + 1, selects: rootFields, columns });
  const { page, next } = paged(rows, query.limit);
  const items = page.map((row) => {
    const aggregates = traceAggregatesJson(row, selects);
    return { root_run: render(row), ...(aggregates ? { trace_aggregates: aggregates } : {}), query_metadata: null };
  });
  return { items, next_cursor: next };
}

/**
 * `GET /api/v2/traces/{trace_id}/runs?project_id=`: every run of the trace (optionally filtered and within
 * `[min_start_time, max_start_time]`, given together), oldest first, in one response.
 */
export async function listTraceRunsV2(deps: ReadRunsV2Deps, caller: V2Caller, traceId: string, params: TraceRunsV2Request): Promise<{ items: RunV2[] }> {
  if ((params.min_start_time === undefined) !== (params.max_start_time === undefined)) {
    const missing = params.min_start_time === undefined ? 'min_start_time' : 'max_start_time';
    throw ValidationError.at(['query', missing], 'min_start_time and max_start_time go together');
  }
  const window = params.min_start_time && params.max_start_time ? startWindow(params, 0, 'query') : {};
  // No page: all the trace's runs come at once (`limit` is not used).
  const query: RunQuery = { tenantId: caller.tenantId, sessionIds: [params.project_id], traceId, ...window, endInclusive: true, filter: params.filter, order: 'asc', limit: 0 };
  const selects = new Set(params.selects ?? []);
  const { rows, render } = await readRuns(deps, caller, { query, take: undefined, selects, columns: { subtreeUsage: false } });
  return { items: rows.map((row) => render(row)) };
}
