import { InputError, NotFoundError, ValidationError, ConflictError, isPlatformError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { BulkExport, Clock, DestinationsRepository, ExportsRepository } from '@platform/export-data-access';
import type { CreateExportRequest } from './create-export.schema';
import type { ExportQueryValidator } from './export-query-validator';

export interface ExportsDeps {
  exports: ExportsRepository;
  destinations: DestinationsRepository;
  /** Validates the filter against the tracing service; absent = not checked here (workers fail the export). */
  queryValidator?: ExportQueryValidator;
  clock: Clock;
  /** Told when an export is created or cancelled, so the dispatcher can act now rather than at its next tick. */
  workAvailable?: () => void;
}

/** Creates a one-off export (split into one run per UTC day) or a schedule (`interval_hours`). */
export async function createExport(deps: ExportsDeps, tenantId: string, req: CreateExportRequest): Promise<BulkExport> {
  const destination = await deps.destinations.find(tenantId, req.bulk_export_destination_id);
  if (!destination) throw new NotFoundError(`Bulk export destination ${req.bulk_export_destination_id} not found`);
  const fields = req.export_fields ? [...new Set(req.export_fields)] : [];
  const filter = req.filter ? req.filter : null;
  if (deps.queryValidator) {
    try {
      await deps.queryValidator.validate({ tenantId, sessionId: req.session_id, filter, fields, startTime: req.start_time });
    } catch (err) {
      // The filter's syntax error names the position; report it FastAPI-style on the field.
      if (err instanceof InputError && !(err instanceof ValidationError)) throw ValidationError.at(['body', 'filter'], err.message);
      if (isPlatformError(err) && err.code === 'not_found') throw new NotFoundError(`Tracing project ${req.session_id} not found`);
      throw err;
    }
  }
  const scheduled = req.interval_hours != null;
  const created = await deps.exports.create({
    tenantId,
    destinationId: destination.id,
    sessionId: req.session_id,
    startTime: req.start_time,
    endTime: scheduled ? null : (req.end_time as Date),
    status: scheduled ? 'IntervalScheduled' : 'Created',
    format: req.format,
    formatVersion: req.format_version,
    compression: req.compression,
    filter,
    exportFields: fields,
    intervalHours: req.interval_hours ?? null,
  });
  if (!scheduled) deps.workAvailable?.();
  return created;
}

export function listExports(deps: Pick<ExportsDeps, 'exports'>, tenantId: string, limit = 100, offset = 0): Promise<BulkExport[]> {
  return deps.exports.list(tenantId, limit, offset);
}

export async function getExport(deps: Pick<ExportsDeps, 'exports'>, tenantId: string, id: string): Promise<BulkExport> {
  const found = isUuid(id) ? await deps.exports.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export ${id} not found`);
  return found;
}

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
