import type { BulkExport } from '@platform/export-data-access';

/** The JSON shape of a bulk export (`/api/v1/bulk-exports`). */
export function bulkExportJson(e: BulkExport) {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    bulk_export_destination_id: e.destinationId,
    session_id: e.sessionId,
    start_time: e.startTime.toISOString(),
    end_time: e.endTime?.toISOString() ?? null,
    status: e.status,
    format: e.format,
    format_version: e.formatVersion,
    compression: e.compression,
    filter: e.filter,
    export_fields: e.exportFields.length ? e.exportFields : null,
    interval_hours: e.intervalHours,
    source_bulk_export_id: e.sourceBulkExportId,
    error: e.error,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    finished_at: e.finishedAt?.toISOString() ?? null,
  };
}
