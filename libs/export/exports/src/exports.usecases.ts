import { NotFoundError } from '@platform/errors';
import type { BulkExport, BulkExportStore } from './bulk-export';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listExports(store: BulkExportStore, tenantId: string, limit = 100, offset = 0): Promise<BulkExport[]> {
  return store.list(tenantId, limit, offset);
}

export async function getExport(store: BulkExportStore, tenantId: string, id: string): Promise<BulkExport> {
  const found = UUID.test(id) ? await store.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export ${id} not found`);
  return found;
}
