import type { ReportFailureRequest__Output } from '@platform/contracts';
import { ids, type RunProgressDeps } from './run-progress.deps';

/** `ReportFailure` */
export async function reportFailure(deps: RunProgressDeps, req: ReportFailureRequest__Output): Promise<void> {
  const where = ids(req.export_id, req.run_id);
  await deps.progress.failure({ ...where, attempt: req.attempt, error: req.error, retryable: req.retryable }, deps.clock());
  deps.workAvailable?.();
}
