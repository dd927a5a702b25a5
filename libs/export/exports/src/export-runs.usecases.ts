import type { BulkExport, ExportRun, ExportsRepository } from '@platform/export-data-access';
import { partitionPrefix } from '@platform/export-s3';
import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { exportRunJson } from './export-run-json';
import { getExport } from './exports.usecases';

type Deps = { exports: ExportsRepository };
export type ExportRunJson = ReturnType<typeof exportRunJson>;

async function render(deps: Deps, exports: BulkExport[], runs: ExportRun[]): Promise<ExportRunJson[]> {
  const byId = new Map(exports.map((e) => [e.id, e]));
  const configs = new Map<string, Awaited<ReturnType<ExportsRepository['destinationConfigOf']>>>();
  for (const e of exports) {
    if (!configs.has(e.destinationId)) configs.set(e.destinationId, await deps.exports.destinationConfigOf(e.destinationId));
  }
  return runs.map((run) => {
    const e = byId.get(run.bulkExportId) as BulkExport;
    const config = configs.get(e.destinationId);
    const prefix = config
      ? partitionPrefix(config, { exportId: e.id, tenantId: e.tenantId, sessionId: e.sessionId, day: run.startTime })
      : '';
    return exportRunJson(run, prefix);
  });
}

/** `GET /bulk-exports/{id}/runs` */
export async function listExportRuns(deps: Deps, tenantId: string, exportId: string): Promise<ExportRunJson[]> {
  const e = await getExport(deps, tenantId, exportId);
  return render(deps, [e], await deps.exports.runsOf(e.id));
}

/** `GET /bulk-exports/{id}/runs/{run_id}` */
export async function getExportRun(deps: Deps, tenantId: string, exportId: string, runId: string): Promise<ExportRunJson> {
  const e = await getExport(deps, tenantId, exportId);
  const run = isUuid(runId) ? await deps.exports.findRun(e.id, runId.toLowerCase()) : null;
  if (!run) throw new NotFoundError(`Export run ${runId} not found`);
  return (await render(deps, [e], [run]))[0];
}

/** `GET /bulk-exports/runs?source_bulk_export_id=`: runs of every export a schedule spawned. */
export async function listRunsOfSchedule(deps: Deps, tenantId: string, sourceId: string): Promise<ExportRunJson[]> {
  const source = await getExport(deps, tenantId, sourceId);
  const spawned = await deps.exports.spawnedBy(tenantId, source.id);
  if (!spawned.length) return [];
  return render(deps, spawned, await deps.exports.runsOfExports(spawned.map((e) => e.id)));
}
