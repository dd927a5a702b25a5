import type { ExportProgressHandlers } from '@platform/contracts';
import { GrpcCode } from '@platform/errors';
import { StaleAttemptError } from '@platform/export-data-access';
import { getRunCheckpoint, reportFailure, reportProgress, type RunProgressDeps } from '@platform/export-dispatch';
import { unary } from '@platform/grpc';

// A stale attempt is FAILED_PRECONDITION (the worker must stop), which the shared error table has no class for.
function asStatus(err: unknown): unknown {
  return err instanceof StaleAttemptError ? { code: GrpcCode.FAILED_PRECONDITION, details: err.message } : err;
}

const guarded =
  <Req, Res>(fn: (req: Req) => Promise<Res>) =>
  async (req: Req): Promise<Res> => {
    try {
      return await fn(req);
    } catch (err) {
      throw asStatus(err);
    }
  };

/** `export.v1.ExportProgress`: workers' checkpoints and failures, recorded by the run state machine. */
export function exportProgressHandlers(deps: RunProgressDeps): ExportProgressHandlers {
  return {
    ReportProgress: unary(guarded((req) => reportProgress(deps, req))),
    ReportFailure: unary(
      guarded(async (req) => {
        await reportFailure(deps, req);
        return {};
      }),
    ),
    GetRunCheckpoint: unary(guarded((req) => getRunCheckpoint(deps, req.export_id, req.run_id))),
  };
}
