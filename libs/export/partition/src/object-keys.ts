import { microsToDate } from '@platform/contracts';
import { partitionPrefix } from '@platform/export-s3';
import type { ExportedFile, PartitionJob, PartitionSpec } from './partition.types';

/**
 * The run's Hive partition folder: `<prefix>/export_id=/tenant_id=/session_id=/runs/year=YYYY/month=MM/day=DD`,
 * the day being the UTC day of the partition's window start (month and day zero-padded, so folders sort).
 */
export function partitionFolder(job: PartitionJob, spec: PartitionSpec): string {
  return partitionPrefix(spec.destination, {
    exportId: job.exportId,
    tenantId: spec.tenantId,
    sessionId: spec.sessionId,
    day: microsToDate(spec.startUs),
  });
}

/**
 * The key of the run's file number `index`: `<folder>/<run_id>-<index, 5 digits>.parquet`. The number is the
 * file's position in the run's recorded files, never the attempt, so a recorded file is never overwritten, and
 * a file uploaded but not recorded (a crash between upload and report) is overwritten by the file that replaces
 * it when the run resumes from the recorded cursor: the bucket never holds a row twice.
 */
export function fileKey(folder: string, runId: string, index: number): string {
  return `${folder}/${runId}-${String(index).padStart(5, '0')}.parquet`;
}

/** The number of the run's next file: after every recorded one. */
export function nextFileIndex(runId: string, recorded: readonly ExportedFile[]): number {
  const pattern = new RegExp(`/${runId}-(\\d+)\\.parquet$`);
  let next = recorded.length;
  for (const { key } of recorded) {
    const match = pattern.exec(key);
    if (match) next = Math.max(next, Number(match[1]) + 1);
  }
  return next;
}
