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
