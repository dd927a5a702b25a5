import { getExport } from './get-export.usecase';
import { type Deps, type ExportRunJson, render } from './export-runs.deps';

/** `GET /bulk-exports/{id}/runs` */
export async function listExportRuns(deps: Deps, tenantId: string, exportId: string): Promise<ExportRunJson[]> {
  const e = await getExport(deps, tenantId, exportId);
  return render(deps, [e], await deps.exports.runsOf(e.id));
}
