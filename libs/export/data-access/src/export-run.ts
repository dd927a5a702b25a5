import type { ExportStatus } from './export-status';

export interface ExportedFile {
  key: string;
  rows: number;
  bytes: number;
}

/** One date partition of a bulk export. */
export interface ExportRun {
  id: string;
  bulkExportId: string;
  tenantId: string;
  status: ExportStatus;
  startTime: Date;
  endTime: Date;
  attempt: number;
  errors: Record<string, string>;
  rowsWritten: bigint;
  bytesWritten: bigint;
  files: ExportedFile[];
  cursor: { startTimeMicros: bigint; id: string } | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}
