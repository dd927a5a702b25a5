import type { RunRow } from '../run-row';

/** A row's place in the listing order: start time in epoch microseconds (decimal string) and run id. */
export interface RunQueryCursor {
  startTimeUs: string;
  id: string;
}

/** What `POST /runs/query` asks for, already validated; every condition is optional and they all AND together. */
export interface RunQuery {
  tenantId: string;
  sessionIds?: string[];
  ids?: string[];
  traceId?: string;
  parentRunId?: string;
  referenceExampleIds?: string[];
  runType?: string;
  isRoot?: boolean;
  /** true: runs with an error; false: runs without. */
  error?: boolean;
  /** Half-open window on the run's start time, epoch microseconds: `[startUs, endUs)` (`[startUs, endUs]` with `endInclusive`). */
  startUs?: string;
  endUs?: string;
  endInclusive?: boolean;
  /** Case-insensitive text search (the `query` field), as the filter language's `search(...)`. */
  search?: string;
  /** Filter language text over the run itself. */
  filter?: string;
  /** Filter over the root run of the run's trace. */
  traceFilter?: string;
  /** Filter that some run of the run's trace (the run itself included) must match. */
  treeFilter?: string;
  /** The filters' feedback conditions only match feedback last modified in `[from, to)` (ISO-8601). */
  feedbackModified?: { from?: string; to?: string };
  /** `desc` (default): newest first. */
  order: 'asc' | 'desc';
  /** Rows per page; no limit where a caller reads everything at once (the runs of one trace). */
  limit: number;
  /** Continue after this row. */
  after?: RunQueryCursor;
}

/** Reads runs for a {@link RunQuery}; the Prisma repository implements it. */
export interface RunQueryReader {
  /**
   * Up to `take` rows (all, when undefined) in the query's order, after its cursor: whole {@link RunRow}s, or the
   * columns of another SELECT list over `runs r`.
   */
  find<Row = RunRow>(query: RunQuery, take: number | undefined, select?: string): Promise<Row[]>;
}

export const MAX_RUN_QUERY_LIMIT = 100;
