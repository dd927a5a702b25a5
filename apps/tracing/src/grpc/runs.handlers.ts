import type { RunsHandlers, StreamRunsRequest__Output } from '@platform/contracts';
import { serverStream } from '@platform/grpc';
import { prismaUnsortedSql, TracingProjectsRepository, type PrismaClient, type UnsortedCopySql } from '@platform/tracing-data-access';
import { releaseRunBatch, RunPageRepository, streamRunBatches, type StreamRunsDeps } from '@platform/tracing-runs';
import { parseStreamRunsRequest } from './stream-runs.request';

export interface RunsHandlersDeps {
  prisma: PrismaClient;
  /** On Postgres: NDJSON pages are read by binary COPY here (`openPostgresCopySql`); without it, through Prisma. */
  copy?: UnsortedCopySql;
  /** Approximate bytes per RunBatch message; default just under 4 MiB. */
  maxBatchBytes?: number;
}

const MAX_UNRELEASED_BATCHES = 4;

/** `tracing.v1.Runs`: StreamRuns validates the request, then streams keyset pages with back-pressure. */
export function runsHandlers(deps: RunsHandlersDeps): RunsHandlers {
  const stream: StreamRunsDeps = {
    runs: new RunPageRepository(prismaUnsortedSql(deps.prisma), deps.copy),
    projects: new TracingProjectsRepository(deps.prisma),
  };
  return {
    // A batch's page buffer is reused once grpc-js is done with the batch (written, or the call over); a few batches
    // queued are enough to keep the connection busy, and bound the page buffers (and grpc-js' frames) out at a time.
    StreamRuns: serverStream(
      (request: StreamRunsRequest__Output, ctx) => {
        const query = { ...parseStreamRunsRequest(request), maxBatchBytes: deps.maxBatchBytes };
        return streamRunBatches(stream, query, ctx.signal);
      },
      { released: releaseRunBatch, maxUnreleased: MAX_UNRELEASED_BATCHES },
    ),
  };
}
