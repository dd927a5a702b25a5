import type { RunCheckpoint } from '@platform/contracts';
import { ids, runCheckpointOf, type RunProgressDeps } from './run-progress.deps';

/** `GetRunCheckpoint`: a worker takes a run. */
export async function getRunCheckpoint(deps: RunProgressDeps, exportId: string, runId: string): Promise<RunCheckpoint> {
  const where = ids(exportId, runId);
  const start = await deps.progress.start(where.exportId, where.runId, deps.clock());
  // Its job left the queue: the workspace may have another published at once (its queued runs are capped).
  if (start.continueRun) deps.workAvailable?.();
  return runCheckpointOf(start);
}
