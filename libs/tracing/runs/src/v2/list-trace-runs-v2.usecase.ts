import { ValidationError } from '@platform/errors';
import type { RunQuery } from '../query/run-query.types';
import type { RunV2 } from './run-v2-json';
import type { TraceRunsV2Request } from './run-v2-requests.schema';
import { startWindow } from './run-v2-query';
import { readRuns, type ReadRunsV2Deps, type V2Caller } from './read-runs-v2.deps';

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
