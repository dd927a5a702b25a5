import type { ExportableRunField } from '@platform/contracts';

/** A row's position in (start_time, id) order: start time in epoch microseconds, run id. */
export interface RunStreamCursor {
  startTimeUs: bigint;
  id: string;
}

/**
 * How batches carry their runs: `messages` as proto `Run`s; `ndjson` as newline-delimited JSON lines (the proto3
 * JSON form of `Run`), which a consumer that hands rows to a JSON reader stores as they are.
 */
export type RunStreamEncoding = 'messages' | 'ndjson';

/** What one StreamRuns call reads: a project's runs in a half-open window on `start_time`. */
export interface RunStreamQuery {
  tenantId: string;
  sessionId: string;
  /** Window `[startUs, endUs)` on the run's start time, epoch microseconds. */
  startUs: bigint;
  endUs: bigint;
  /** Filter query language text; blank = every run. */
  filter?: string;
  /** Fields to fill; `id` and `start_time` (the cursor) are always filled. */
  fields: readonly ExportableRunField[];
  /** Resume strictly after this row. */
  after?: RunStreamCursor;
  /** Maximum runs per batch. */
  batchSize: number;
  /** Approximate payload bytes per batch; a batch closes before it would grow past this. */
  maxBatchBytes?: number;
  /** Default `messages`. */
  encoding?: RunStreamEncoding;
}

export const DEFAULT_RUN_BATCH_SIZE = 1000;
export const MAX_RUN_BATCH_SIZE = 10_000;
/** Keeps messages under grpc-js's 4 MiB default receive limit for clients not made by `createClient`. */
export const DEFAULT_MAX_RUN_BATCH_BYTES = 4 * 1024 * 1024 - 64 * 1024;
