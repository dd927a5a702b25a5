import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { getExport } from './get-export.usecase';
import { type Deps, type ExportRunJson, render } from './export-runs.deps';

/** `GET /bulk-exports/{id}/runs/{run_id}` */
export async function getExportRun(deps: Deps, tenantId: string, exportId: string, runId: string): Promise<ExportRunJson> {
  const e = await getExport(deps, tenantId, exportId);
  const run = isUuid(runId) ? await deps.exports.findRun(e.id, runId.toLowerCase()) : null;
  if (!run) throw new NotFoundError(`Export run ${runId} not found`);
  return (await render(deps, [e], [run]))[0];
}
