import { getExport } from './get-export.usecase';
import { type Deps, type ExportRunJson, render } from './export-runs.deps';

/** `GET /bulk-exports/runs?source_bulk_export_id=`: runs of every export a schedule spawned. */
export async function listRunsOfSchedule(deps: Deps, tenantId: string, sourceId: string): Promise<ExportRunJson[]> {
  const source = await getExport(deps, tenantId, sourceId);
  const spawned = await deps.exports.spawnedBy(tenantId, source.id);
  if (!spawned.length) return [];
  return render(deps, spawned, await deps.exports.runsOfExports(spawned.map((e) => e.id)));
}
