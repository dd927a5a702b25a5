import type { RunCheckpoint } from '@platform/contracts';
import { ids, runCheckpointOf, type RunProgressDeps } from './run-progress.deps';

/** `GetRunCheckpoint` */
export async function getRunCheckpoint(deps: RunProgressDeps, exportId: string, runId: string): Promise<RunCheckpoint> {
  const where = ids(exportId, runId);
  return runCheckpointOf(await deps.progress.start(where.exportId, where.runId, deps.clock()));
}
