import { NotFoundError, ValidationError } from '@platform/errors';
import type { RunQuery } from '../query/run-query.types';
import type { RunV2 } from './run-v2-json';
import type { RunsQueryV2Request } from './run-v2-requests.schema';
import { commonV2Query, startWindow } from './run-v2-query';
import { paged, readRuns, type ReadRunsV2Deps, type V2Caller, type V2Page } from './read-runs-v2.deps';

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
