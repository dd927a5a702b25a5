import { InputError, isPlatformError, NotFoundError, ValidationError } from '@platform/errors';
import type { BulkExport } from '@platform/export-data-access';
import type { CreateExportRequest } from './create-export.schema';
import type { ExportsDeps } from './exports.deps';

/** Creates a one-off export (split into one run per UTC day) or a schedule (`interval_hours`). */
export async function createExport(deps: ExportsDeps, tenantId: string, req: CreateExportRequest): Promise<BulkExport> {
  deps.requireJobQueue?.();
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
