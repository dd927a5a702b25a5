import type { BulkExport } from '@platform/export-data-access';
import type { ExportsDeps } from './exports.deps';

export function listExports(deps: Pick<ExportsDeps, 'exports'>, tenantId: string, limit = 100, offset = 0): Promise<BulkExport[]> {
  return deps.exports.list(tenantId, limit, offset);
}
