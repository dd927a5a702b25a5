import type { ReportProgressRequest__Output } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { ids, type RunProgressDeps } from './run-progress.deps';

function micros(value: string | number | undefined, what: string): bigint {
  try {
    return BigInt(value ?? 0);
  } catch {
    throw new InputError(`${what} must be an integer`);
  }
}

/** `ReportProgress` */
export async function reportProgress(deps: RunProgressDeps, req: ReportProgressRequest__Output): Promise<{ continue_run: boolean }> {
  const where = ids(req.export_id, req.run_id);
  const cursor = req.cursor && req.cursor.id ? { startTimeMicros: micros(req.cursor.start_time, 'cursor.start_time'), id: req.cursor.id } : null;
  const { continueRun } = await deps.progress.progress(
    {
      ...where,
      attempt: req.attempt,
      cursor,
      rowsWritten: micros(req.rows_written, 'rows_written'),
      bytesWritten: micros(req.bytes_written, 'bytes_written'),
      files: req.files.map((f) => ({ key: f.key, rows: Number(f.rows), bytes: Number(f.bytes) })),
      done: req.done,
    },
    deps.clock(),
  );
  if (req.done) deps.workAvailable?.();
  return { continue_run: continueRun };
}
