import { ConflictError, NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { BulkExport } from '@platform/export-data-access';
import type { ExportsDeps } from './exports.deps';

/** PATCH `{"status": "Cancelled"}`: idempotent for a cancelled export, a conflict for another final one. */
export async function cancelExport(deps: Pick<ExportsDeps, 'exports' | 'clock' | 'workAvailable'>, tenantId: string, id: string): Promise<BulkExport> {
  const outcome = isUuid(id) ? await deps.exports.cancel(tenantId, id.toLowerCase(), deps.clock()) : null;
  if (!outcome) throw new NotFoundError(`Bulk export ${id} not found`);
  if (outcome.kind === 'final') {
    throw new ConflictError(`Bulk export ${id} is ${outcome.export.status} and cannot be cancelled; create a new export instead`);
  }
  // A cancelled export no longer counts against its workspace's running limit.
  deps.workAvailable?.();
  return outcome.export;
}
