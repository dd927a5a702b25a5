import { dateToMicros, type RunCheckpoint } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { Clock, RunProgressRepository, RunStart } from '@platform/export-data-access';

export interface RunProgressDeps {
  progress: RunProgressRepository;
  clock: Clock;
  /** Told when a run ends or fails, freeing its slot (and, failed for good, its export's), so the dispatcher can act now. */
  workAvailable?: () => void;
}

export function ids(exportId: string, runId: string): { exportId: string; runId: string } {
  if (!isUuid(exportId)) throw new InputError('export_id must be a UUID');
  if (!isUuid(runId)) throw new InputError('run_id must be a UUID');
  return { exportId: exportId.toLowerCase(), runId: runId.toLowerCase() };
}

/** The checkpoint a (re)starting worker resumes from, with the run's spec (decrypted credentials) when it may go on. */
export function runCheckpointOf(start: RunStart): RunCheckpoint {
  const { run } = start;
  const checkpoint: RunCheckpoint = {
    cursor: run.cursor ? { start_time: run.cursor.startTimeMicros.toString(), id: run.cursor.id } : null,
    rows_written: run.rowsWritten.toString(),
    bytes_written: run.bytesWritten.toString(),
    files: run.files.map((f) => ({ key: f.key, rows: f.rows, bytes: f.bytes })),
    continue_run: start.continueRun,
    attempt: run.attempt,
  };
  if (start.continueRun && start.export && start.destination) {
    const e = start.export;
    const d = start.destination;
    checkpoint.spec = {
      tenant_id: e.tenantId,
      session_id: e.sessionId,
      start_time: dateToMicros(run.startTime),
      end_time: dateToMicros(run.endTime),
      filter: e.filter ?? '',
      fields: e.exportFields,
      format_version: e.formatVersion,
      compression: e.compression ?? 'gzip',
      destination: {
        bucket_name: d.bucket_name,
        prefix: d.prefix,
        region: d.region ?? '',
        endpoint_url: d.endpoint_url ?? '',
        include_bucket_in_prefix: Boolean(d.include_bucket_in_prefix),
        addressing_style: d.addressing_style ?? 'auto',
        access_key_id: d.credentials?.access_key_id ?? '',
        secret_access_key: d.credentials?.secret_access_key ?? '',
        session_token: d.credentials?.session_token ?? '',
      },
    };
  }
  return checkpoint;
}
