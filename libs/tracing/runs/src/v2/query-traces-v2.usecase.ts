import type { RunQuery } from '../query/run-query.types';
import { traceAggregatesJson } from './run-v2-json';
import type { RunSelectField } from './run-select-fields';
import type { TracesQueryV2Request } from './run-v2-requests.schema';
import { commonV2Query, startWindow } from './run-v2-query';
import { paged, readRuns, type ReadRunsV2Deps, type TraceV2, type V2Caller, type V2Page } from './read-runs-v2.deps';

// Fields `traces.query` shows under `trace_aggregates` rather than on the root run.
const AGGREGATE_FIELDS: ReadonlySet<RunSelectField> = new Set(['TOTAL_TOKENS', 'TOTAL_COST', 'FIRST_TOKEN_TIME']);

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
