import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { BulkExport, BulkExportStore } from './bulk-export';

export function listExports(store: BulkExportStore, tenantId: string, limit = 100, offset = 0): Promise<BulkExport[]> {
  return store.list(tenantId, limit, offset);
}

export async function getExport(store: BulkExportStore, tenantId: string, id: string): Promise<BulkExport> {
  const found = isUuid(id) ? await store.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export ${id} not found`);
  return found;
}
