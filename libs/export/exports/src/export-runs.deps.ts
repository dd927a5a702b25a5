import type { BulkExport, ExportRun, ExportsRepository } from '@platform/export-data-access';
import { partitionPrefix } from '@platform/export-s3';
import { exportRunJson } from './export-run-json';

export type Deps = { exports: ExportsRepository };

export type ExportRunJson = ReturnType<typeof exportRunJson>;

export async function render(deps: Deps, exports: BulkExport[], runs: ExportRun[]): Promise<ExportRunJson[]> {
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
