import type { RunsClient, StreamRunsRequest } from '@platform/contracts';
import { readStream } from '@platform/grpc';
import type { RunPage, RunQuery, RunSource } from '../ports';

export interface GrpcRunSourceOptions {
  /** Deadline of one whole stream (a partition can take hours). */
  deadlineMs: number;
  /** Runs per batch; 0 = the server's default. */
  batchSize?: number;
}

/** `tracing.v1.Runs/StreamRuns`: pages of runs pulled with back-pressure; rows are the decoded `Run`s as they are. */
export class GrpcRunSource implements RunSource {
  constructor(
    private readonly client: RunsClient,
    private readonly options: GrpcRunSourceOptions,
  ) {}

  async *stream(query: RunQuery, signal: AbortSignal): AsyncIterable<RunPage> {
    const request: StreamRunsRequest = {
      tenant_id: query.tenantId,
      session_id: query.sessionId,
      start_time: query.startUs,
      end_time: query.endUs,
      filter: query.filter,
      fields: query.fields,
      cursor: query.after ? { start_time: query.after.startTime, id: query.after.id } : undefined,
      batch_size: this.options.batchSize ?? 0,
    };
    for await (const batch of readStream(this.client, 'StreamRuns', request, { deadlineMs: this.options.deadlineMs, signal })) {
      if (!batch.runs.length || !batch.cursor) continue;
      yield { runs: batch.runs, cursor: { startTime: batch.cursor.start_time, id: batch.cursor.id } };
    }
  }
}
