import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { BulkExport } from '@platform/export-data-access';
import type { ExportsDeps } from './exports.deps';

export async function getExport(deps: Pick<ExportsDeps, 'exports'>, tenantId: string, id: string): Promise<BulkExport> {
  const found = isUuid(id) ? await deps.exports.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export ${id} not found`);
  return found;
}
