// A small ExportProgress server for the worker's integration tests, served by the real startGrpcServer: it keeps
// each run's checkpoint the way the export service does (files keyed, cursor and totals from the last report,
// stale attempts refused) and records every call. The export service's own server is tested on its side; the
// cross-service end-to-end test runs the two together.
import {
  exportProgressService,
  type FileWritten__Output,
  type ReportFailureRequest__Output,
  type ReportProgressRequest__Output,
  type RunCheckpoint,
  type RunSpec,
} from '@platform/contracts';
import { ConflictError, NotFoundError, UnavailableError } from '@platform/errors';
import { startGrpcServer, unary, type GrpcServerHandle } from '@platform/grpc';

export interface RecordedRun {
  spec: RunSpec;
  attempt: number;
  continueRun: boolean;
  cursor?: { start_time: string; id: string };
  rowsWritten: string;
  bytesWritten: string;
  files: FileWritten__Output[];
  done: boolean;
  checkpointCalls: number;
  reports: ReportProgressRequest__Output[];
  failures: ReportFailureRequest__Output[];
  /** `continue_run` answered to the n-th recorded report (1-based); default true. */
  continueAfter: (n: number) => boolean;
  /** Answers UNAVAILABLE (unrecorded) while this returns true for a report. */
  unavailable?: (report: ReportProgressRequest__Output) => boolean;
}

export interface RecordingExportProgress {
  address: string;
  runs: Map<string, RecordedRun>;
  addRun(runId: string, spec: RunSpec, overrides?: Partial<RecordedRun>): RecordedRun;
  close(): Promise<void>;
}

export async function startRecordingExportProgress(token: string): Promise<RecordingExportProgress> {
  const runs = new Map<string, RecordedRun>();
  const runOf = (runId: string) => {
    const run = runs.get(runId);
    if (!run) throw new NotFoundError(`Export run ${runId} not found`);
    return run;
  };
  const service = exportProgressService();
  const server: GrpcServerHandle = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    auth: { token },
    services: [
      service.implement({
        GetRunCheckpoint: unary(async (req): Promise<RunCheckpoint> => {
          const run = runOf(req.run_id);
          run.checkpointCalls++;
          const going = run.continueRun && !run.done;
          return {
            cursor: run.cursor ?? null,
            rows_written: run.rowsWritten,
            bytes_written: run.bytesWritten,
            files: run.files,
            continue_run: going,
            attempt: run.attempt,
            spec: going ? run.spec : null,
          };
        }),
        ReportProgress: unary(async (req) => {
          const run = runOf(req.run_id);
          if (req.attempt !== run.attempt) throw new ConflictError(`attempt ${req.attempt} is not the run's current attempt ${run.attempt}`);
          if (run.unavailable?.(req)) throw new UnavailableError('export service unavailable (injected)');
          run.reports.push(req);
          const byKey = new Map(run.files.map((f) => [f.key, f]));
          for (const f of req.files) byKey.set(f.key, f);
          run.files = [...byKey.values()];
          run.cursor = req.cursor ?? undefined;
          run.rowsWritten = req.rows_written;
          run.bytesWritten = req.bytes_written;
          run.done ||= req.done;
          return { continue_run: run.continueAfter(run.reports.length) };
        }),
        ReportFailure: unary(async (req) => {
          const run = runOf(req.run_id);
          run.failures.push(req);
          return {};
        }),
      }),
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    runs,
    addRun(runId, spec, overrides = {}) {
      const run: RecordedRun = {
        spec,
        attempt: 0,
        continueRun: true,
        rowsWritten: '0',
        bytesWritten: '0',
        files: [],
        done: false,
        checkpointCalls: 0,
        reports: [],
        failures: [],
        continueAfter: () => true,
        ...overrides,
      };
      runs.set(runId, run);
      return run;
    },
    close: () => server.shutdown(1_000),
  };
}
