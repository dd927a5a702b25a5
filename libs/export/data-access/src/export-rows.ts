// Row → domain mappers shared by the repositories.
import type { PrismaClient } from './generated/prisma/client';
import type { BulkExport } from './bulk-export';
import type { ExportStatus } from './export-status';
import type { ExportRun, ExportedFile } from './export-run';

export type ExportRow = Awaited<ReturnType<PrismaClient['bulkExport']['findUniqueOrThrow']>>;
export type RunRow = Awaited<ReturnType<PrismaClient['bulkExportRun']['findUniqueOrThrow']>>;

export function toExport({ bulkExportDestinationId, status, ...row }: ExportRow): BulkExport {
  return { ...row, status: status as ExportStatus, destinationId: bulkExportDestinationId };
}

/**
 * A run's status as users see it: `Running` holds a capacity slot from dispatch on, but the run reads `Created`
 * until a worker takes its first attempt (its job may wait in the shared queue).
 */
function runStatus(row: RunRow): ExportStatus {
  const waiting = row.status === 'Running' && row.attemptStartedAt === null && row.attempt === 0 && Object.keys((row.errors ?? {}) as object).length === 0;
  return waiting ? 'Created' : (row.status as ExportStatus);
}

export function toRun(row: RunRow): ExportRun {
  return {
    id: row.id,
    bulkExportId: row.bulkExportId,
    tenantId: row.tenantId,
    status: runStatus(row),
    startTime: row.startTime,
    endTime: row.endTime,
    attempt: row.attempt,
    errors: (row.errors ?? {}) as Record<string, string>,
    rowsWritten: row.rowsWritten,
    bytesWritten: row.bytesWritten,
    files: (row.files ?? []) as unknown as ExportedFile[],
    cursor: row.cursorStartTime !== null && row.cursorId ? { startTimeMicros: row.cursorStartTime, id: row.cursorId } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

// The hot paths (every worker report) lock and read a row in one statement.
export const RUN_COLUMNS = `id::text AS id, bulk_export_id::text AS bulk_export_id, tenant_id::text AS tenant_id, status, start_time, end_time,
  attempt, errors, dispatch_seq, dispatched_at, published_at, next_attempt_at, attempt_started_at, last_progress_at,
  cursor_start_time, cursor_id, rows_written, bytes_written, files, destination_snapshot, created_at, updated_at, finished_at`;
export const EXPORT_COLUMNS = `id::text AS id, tenant_id::text AS tenant_id, bulk_export_destination_id::text AS bulk_export_destination_id,
  session_id::text AS session_id, start_time, end_time, status, format, format_version, compression, filter, export_fields,
  interval_hours, source_bulk_export_id::text AS source_bulk_export_id, schedule_window, error, created_at, updated_at,
  started_at, finished_at`;

export type SqlRunRow = Record<string, unknown>;
export type SqlExportRow = Record<string, unknown>;

const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as string | number));
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
const maybeDate = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

export function runFromSql(r: SqlRunRow): RunRow {
  return {
    id: r.id as string,
    bulkExportId: r.bulk_export_id as string,
    tenantId: r.tenant_id as string,
    status: r.status as string,
    startTime: date(r.start_time),
    endTime: date(r.end_time),
    attempt: Number(r.attempt),
    errors: json(r.errors) as RunRow['errors'],
    dispatchSeq: Number(r.dispatch_seq),
    dispatchedAt: maybeDate(r.dispatched_at),
    publishedAt: maybeDate(r.published_at),
    nextAttemptAt: maybeDate(r.next_attempt_at),
    attemptStartedAt: maybeDate(r.attempt_started_at),
    lastProgressAt: maybeDate(r.last_progress_at),
    cursorStartTime: r.cursor_start_time === null ? null : big(r.cursor_start_time),
    cursorId: (r.cursor_id as string | null) ?? null,
    rowsWritten: big(r.rows_written),
    bytesWritten: big(r.bytes_written),
    files: json(r.files) as RunRow['files'],
    destinationSnapshot: (r.destination_snapshot as string | null) ?? null,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    finishedAt: maybeDate(r.finished_at),
  };
}

export function exportFromSql(r: SqlExportRow): BulkExport {
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    destinationId: r.bulk_export_destination_id as string,
    sessionId: r.session_id as string,
    startTime: date(r.start_time),
    endTime: maybeDate(r.end_time),
    status: r.status as BulkExport['status'],
    format: r.format as string,
    formatVersion: r.format_version as string,
    compression: (r.compression as string | null) ?? null,
    filter: (r.filter as string | null) ?? null,
    exportFields: (r.export_fields as string[] | null) ?? [],
    intervalHours: r.interval_hours === null ? null : Number(r.interval_hours),
    sourceBulkExportId: (r.source_bulk_export_id as string | null) ?? null,
    scheduleWindow: r.schedule_window === null ? null : Number(r.schedule_window),
    error: (r.error as string | null) ?? null,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    startedAt: maybeDate(r.started_at),
    finishedAt: maybeDate(r.finished_at),
  };
}
