import type { CredentialCipher, S3DestinationConnection } from '@platform/export-s3';
import type { PrismaClient } from './generated/prisma/client';
import { ConflictError, NotFoundError } from '@platform/errors';
import type { BulkExport } from './bulk-export';
import { connectionOf, type DestinationConfig } from './destination';
import { decryptDestinationCredentials } from './destinations.repository';
import { FINAL_STATUSES, isFinalStatus } from './export-status';
import { EXPORT_COLUMNS, RUN_COLUMNS, exportFromSql, runFromSql, toRun, type RunRow, type SqlExportRow, type SqlRunRow } from './export-rows';
import type { ExportRun, ExportedFile } from './export-run';
import { TX_OPTIONS, type ExportSettings } from './export-settings';

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** A report from an attempt that is no longer the run's current one; the worker must stop (FAILED_PRECONDITION). */
export class StaleAttemptError extends ConflictError {
  constructor(
    readonly reported: number,
    readonly current: number,
  ) {
    super(`Attempt ${reported} is not the run's current attempt (${current}); stop this attempt`);
  }
}

export interface ProgressReport {
  exportId: string;
  runId: string;
  attempt: number;
  cursor: { startTimeMicros: bigint; id: string } | null;
  rowsWritten: bigint;
  bytesWritten: bigint;
  files: ExportedFile[];
  done: boolean;
}

export interface FailureReport {
  exportId: string;
  runId: string;
  attempt: number;
  error: string;
  retryable: boolean;
}

/** What a (re)starting worker gets: the run, whether to go on, and (when going on) what to export where. */
export interface RunStart {
  run: ExportRun;
  continueRun: boolean;
  export?: BulkExport;
  destination?: S3DestinationConnection;
}

const runContext = (id: string) => `run:${id}`;

const MAX_ERROR_CHARS = 4_000;

function compareCursor(a: { startTimeMicros: bigint; id: string }, b: { startTimeMicros: bigint; id: string }): number {
  if (a.startTimeMicros !== b.startTimeMicros) return a.startTimeMicros < b.startTimeMicros ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * The run state machine behind `export.v1.ExportProgress` and the timeout sweeper. Every change locks the export
 * row, then the run row (always in that order), so the last run's completion and the export's status flip happen
 * in one transaction, and cancel/timeout cannot interleave with a report.
 */
export class RunProgressRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: CredentialCipher,
    private readonly settings: Pick<ExportSettings, 'maxRetries' | 'retryDelayMs'>,
  ) {}

  private async lock(tx: Tx, exportId: string, runId: string, exportLock: 'UPDATE' | 'SHARE' = 'UPDATE'): Promise<{ exp: BulkExport; run: RunRow }> {
    const exps =
      exportLock === 'UPDATE'
        ? await tx.$queryRawUnsafe<SqlExportRow[]>(`SELECT ${EXPORT_COLUMNS} FROM bulk_exports WHERE id = $1::uuid FOR UPDATE`, exportId)
        : await tx.$queryRawUnsafe<SqlExportRow[]>(`SELECT ${EXPORT_COLUMNS} FROM bulk_exports WHERE id = $1::uuid FOR SHARE`, exportId);
    if (!exps.length) throw new NotFoundError(`Bulk export ${exportId} not found`);
    const runs = await tx.$queryRawUnsafe<SqlRunRow[]>(
      `SELECT ${RUN_COLUMNS} FROM bulk_export_runs WHERE id = $1::uuid AND bulk_export_id = $2::uuid FOR UPDATE`,
      runId,
      exportId,
    );
    if (!runs.length) throw new NotFoundError(`Export run ${runId} of bulk export ${exportId} not found`);
    return { exp: exportFromSql(exps[0]), run: runFromSql(runs[0]) };
  }

  // A run is workable while it and its export are Running and a job is out for its current attempt.
  private workable(exp: BulkExport, run: RunRow): boolean {
    return exp.status === 'Running' && run.status === 'Running' && run.dispatchedAt !== null;
  }

  /** Fails the run and with it the export; its other unfinished runs are cancelled. */
  private async failExport(tx: Tx, run: RunRow, errors: Record<string, string>, message: string, now: Date): Promise<void> {
    await tx.bulkExportRun.update({ where: { id: run.id }, data: { status: 'Failed', errors, finishedAt: now, dispatchedAt: null } });
    await tx.bulkExportRun.updateMany({
      where: { bulkExportId: run.bulkExportId, id: { not: run.id }, status: { notIn: [...FINAL_STATUSES] } },
      data: { status: 'Cancelled', finishedAt: now },
    });
    const day = run.startTime.toISOString().slice(0, 10);
    await tx.bulkExport.update({
      where: { id: run.bulkExportId },
      data: { status: 'Failed', finishedAt: now, error: `Run ${run.id} (${day}) failed: ${message}`.slice(0, MAX_ERROR_CHARS) },
    });
  }

  /**
   * Records a failed attempt as `retry_<attempt>`; a retryable one is retried after the fixed delay while the
   * budget lasts (keeping its capacity slot), anything else fails the run and the export.
   */
  private async recordFailure(tx: Tx, run: RunRow, message: string, retryable: boolean, now: Date): Promise<'retry' | 'failed'> {
    const text = message.slice(0, MAX_ERROR_CHARS) || 'Unknown error';
    const errors = { ...((run.errors ?? {}) as Record<string, string>), [`retry_${run.attempt}`]: text };
    if (retryable && run.attempt < this.settings.maxRetries) {
      await tx.bulkExportRun.update({
        where: { id: run.id },
        data: {
          errors,
          attempt: run.attempt + 1,
          dispatchedAt: null,
          publishedAt: null,
          attemptStartedAt: null,
          nextAttemptAt: new Date(now.getTime() + this.settings.retryDelayMs),
        },
      });
      return 'retry';
    }
    const why = retryable ? `${text} (retries exhausted after ${run.attempt} retries)` : text;
    await this.failExport(tx, run, errors, why, now);
    return 'failed';
  }

  // The destination as the run first saw it, encrypted per run: later credential rotation does not affect it.
  private async destinationFor(tx: Tx, exp: BulkExport, run: RunRow): Promise<{ connection: S3DestinationConnection; snapshot?: string }> {
    if (run.destinationSnapshot) return { connection: this.cipher.decryptJson<S3DestinationConnection>(run.destinationSnapshot, runContext(run.id)) };
    const row = await tx.bulkExportDestination.findUniqueOrThrow({ where: { id: exp.destinationId } });
    const connection = connectionOf(row.config as unknown as DestinationConfig, decryptDestinationCredentials(this.cipher, row));
    return { connection, snapshot: this.cipher.encryptJson(connection, runContext(run.id)) };
  }

  /**
   * A worker starts (or resumes) a run. If the current attempt had already been started, the earlier worker
   * was interrupted (crash, redelivery): that counts as a retry (`retry_<n>`), and the new attempt number makes
   * the earlier worker's reports stale.
   */
  async start(exportId: string, runId: string, now: Date): Promise<RunStart> {
    return this.prisma.$transaction(async (tx) => {
      const { exp, run } = await this.lock(tx, exportId, runId);
      if (!this.workable(exp, run)) return { run: toRun(run), continueRun: false };
      let current = run;
      if (run.attemptStartedAt) {
        const outcome = await this.recordFailure(tx, run, `Attempt ${run.attempt} was interrupted (worker restarted or job redelivered); resuming from the last checkpoint`, true, now);
        if (outcome === 'failed') return { run: toRun(await tx.bulkExportRun.findUniqueOrThrow({ where: { id: run.id } })), continueRun: false };
        // Resumed at once: the job is already here, only the attempt number moves on.
        current = await tx.bulkExportRun.update({
          where: { id: run.id },
          data: { dispatchedAt: now, publishedAt: now, nextAttemptAt: null },
        });
      }
      const { connection, snapshot } = await this.destinationFor(tx, exp, current);
      const [started] = await tx.$queryRawUnsafe<SqlRunRow[]>(
        `UPDATE bulk_export_runs SET attempt_started_at = $2, last_progress_at = $2, updated_at = $2,
           destination_snapshot = COALESCE(destination_snapshot, $3)
         WHERE id = $1::uuid RETURNING ${RUN_COLUMNS}`,
        run.id,
        now,
        snapshot ?? null,
      );
      return { run: toRun(runFromSql(started)), continueRun: true, export: exp, destination: connection };
    }, TX_OPTIONS);
  }

  /**
   * Records cumulative progress (idempotent); on `done` completes the run, and the export with its last run. A run
   * stopped (cancelled, or ended with its export) while its attempt was writing still records the files that attempt
   * reports, without changing status: they are in the bucket, and every object there is listed in `exported_files`.
   */
  async progress(report: ProgressReport, now: Date): Promise<{ continueRun: boolean }> {
    return this.prisma.$transaction(async (tx) => {
      // Reports of one export's runs proceed in parallel (shared lock); completing a run takes the export row
      // exclusively so that of two last runs finishing together, the second sees the first and flips the export.
      const { exp, run } = await this.lock(tx, report.exportId, report.runId, report.done ? 'UPDATE' : 'SHARE');
      if (run.status === 'Completed' && report.done && report.attempt === run.attempt) return { continueRun: false };
      if (exp.status !== 'Running' || run.status !== 'Running') {
        const stoppedMidAttempt = run.status !== 'Completed' && isFinalStatus(run.status) && run.attemptStartedAt !== null;
        if (stoppedMidAttempt && report.attempt === run.attempt && report.files.length) await this.record(tx, run, report, now, false);
        return { continueRun: false };
      }
      if (report.attempt !== run.attempt) throw new StaleAttemptError(report.attempt, run.attempt);
      if (!this.workable(exp, run)) return { continueRun: false };

      await this.record(tx, run, report, now, report.done);
      if (report.done) {
        await tx.$executeRaw`
          UPDATE bulk_exports SET status = 'Completed', finished_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          WHERE id = ${exp.id}::uuid
            AND NOT EXISTS (SELECT 1 FROM bulk_export_runs WHERE bulk_export_id = ${exp.id}::uuid AND status <> 'Completed')`;
      }
      return { continueRun: true };
    }, TX_OPTIONS);
  }

  /** Adds the report's files to the run's, moves its checkpoint forward, and with `complete` completes it. */
  private async record(tx: Tx, run: RunRow, report: ProgressReport, now: Date, complete: boolean): Promise<void> {
    const stored = toRun(run);
    const files = new Map(stored.files.map((f) => [f.key, f]));
    for (const f of report.files) files.set(f.key, { key: f.key, rows: f.rows, bytes: f.bytes });
    // Reports may arrive out of order (a retried call); the checkpoint only moves forward.
    const advances = report.cursor ? !stored.cursor || compareCursor(report.cursor, stored.cursor) >= 0 : !stored.cursor;
    const cursor = advances && report.cursor ? report.cursor : stored.cursor;
    await tx.$executeRawUnsafe(
      `UPDATE bulk_export_runs
       SET files = $2::jsonb, last_progress_at = $3, updated_at = $3,
           cursor_start_time = $4::bigint, cursor_id = $5, rows_written = $6::bigint, bytes_written = $7::bigint,
           status = CASE WHEN $8 THEN 'Completed' ELSE status END,
           finished_at = CASE WHEN $8 THEN $3 ELSE finished_at END,
           dispatched_at = CASE WHEN $8 THEN NULL ELSE dispatched_at END
       WHERE id = $1::uuid`,
      run.id,
      JSON.stringify([...files.values()]),
      now,
      cursor ? cursor.startTimeMicros.toString() : null,
      cursor?.id ?? null,
      (advances ? report.rowsWritten : stored.rowsWritten).toString(),
      (advances ? report.bytesWritten : stored.bytesWritten).toString(),
      complete,
    );
  }

  /** Records a failed attempt reported by a worker. */
  async failure(report: FailureReport, now: Date): Promise<'retry' | 'failed' | 'ignored'> {
    return this.prisma.$transaction(async (tx) => {
      const { exp, run } = await this.lock(tx, report.exportId, report.runId);
      if (exp.status !== 'Running' || run.status !== 'Running') return 'ignored';
      if (report.attempt !== run.attempt) throw new StaleAttemptError(report.attempt, run.attempt);
      return this.recordFailure(tx, run, report.error, report.retryable, now);
    }, TX_OPTIONS);
  }

  /** The run timeout: an attempt running longer than `runTimeoutMs` is failed as retryable. */
  async timeOutAttempts(runTimeoutMs: number, now: Date, limit = 100): Promise<number> {
    const cutoff = new Date(now.getTime() - runTimeoutMs);
    const due = await this.prisma.$queryRaw<{ id: string; bulk_export_id: string; attempt: number }[]>`
      SELECT u.id::text AS id, u.bulk_export_id::text AS bulk_export_id, u.attempt
      FROM bulk_export_runs u JOIN bulk_exports e ON e.id = u.bulk_export_id
      WHERE e.status = 'Running' AND u.status = 'Running' AND u.attempt_started_at < ${cutoff}::timestamptz
      LIMIT ${limit}::int`;
    let timedOut = 0;
    for (const r of due) {
      timedOut += await this.prisma.$transaction(async (tx) => {
        const { exp, run } = await this.lock(tx, r.bulk_export_id, r.id);
        // Re-checked under the lock: another replica or a report may have got there first.
        if (!this.workable(exp, run) || run.attempt !== r.attempt || !run.attemptStartedAt || run.attemptStartedAt >= cutoff) return 0;
        await this.recordFailure(tx, run, `Run attempt ${run.attempt} timed out after ${formatDuration(runTimeoutMs)}`, true, now);
        return 1;
      }, TX_OPTIONS);
    }
    return timedOut;
  }

  /** The export timeout: Running exports admitted longer than `exportTimeoutMs` ago become TimedOut (no retry). */
  async timeOutExports(exportTimeoutMs: number, now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - exportTimeoutMs);
    const due = await this.prisma.bulkExport.findMany({ where: { status: 'Running', startedAt: { lt: cutoff } }, select: { id: true }, take: 100 });
    let timedOut = 0;
    for (const { id } of due) {
      timedOut += await this.prisma.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<{ status: string; started_at: Date }[]>`
          SELECT status, started_at FROM bulk_exports WHERE id = ${id}::uuid FOR UPDATE`;
        if (locked[0]?.status !== 'Running' || !(locked[0].started_at < cutoff)) return 0;
        await tx.bulkExport.update({
          where: { id },
          data: { status: 'TimedOut', finishedAt: now, error: `Export timed out after ${formatDuration(exportTimeoutMs)}` },
        });
        await tx.bulkExportRun.updateMany({
          where: { bulkExportId: id, status: { notIn: [...FINAL_STATUSES] } },
          data: { status: 'TimedOut', finishedAt: now },
        });
        return 1;
      }, TX_OPTIONS);
    }
    return timedOut;
  }
}
