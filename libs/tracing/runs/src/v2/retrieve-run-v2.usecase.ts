import { NotFoundError } from '@platform/errors';
import type { RunQuery } from '../query/run-query.types';
import type { RunV2 } from './run-v2-json';
import type { RunRetrieveV2Request } from './run-v2-requests.schema';
import { readRuns, type ReadRunsV2Deps, type V2Caller } from './read-runs-v2.deps';

/** `GET /api/v2/runs/{run_id}?project_id=`: one run of that project, or 404. */
export async function retrieveRunV2(deps: ReadRunsV2Deps, caller: V2Caller, runId: string, params: RunRetrieveV2Request): Promise<RunV2> {
  const query: RunQuery = { tenantId: caller.tenantId, sessionIds: [params.project_id], ids: [runId], order: 'desc', limit: 1 };
  const selects = new Set(params.selects ?? []);
  const { rows, render } = await readRuns(deps, caller, { query, take: 1, selects, columns: { subtreeUsage: false } });
  if (!rows[0]) throw new NotFoundError(`Run ${runId} not found in project ${params.project_id}`);
  return render(rows[0]);
}
