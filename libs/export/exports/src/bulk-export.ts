import type { ExportStatus } from './export-status';

/** A bulk export of trace runs to a destination bucket (or, with `intervalHours`, a schedule of them). */
export interface BulkExport {
  id: string;
  tenantId: string;
  destinationId: string;
  sessionId: string;
  startTime: Date;
  endTime: Date | null;
  status: ExportStatus;
  format: string;
  formatVersion: string;
  compression: string | null;
  filter: string | null;
  exportFields: string[];
  intervalHours: number | null;
  sourceBulkExportId: string | null;
  scheduleWindow: number | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

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
