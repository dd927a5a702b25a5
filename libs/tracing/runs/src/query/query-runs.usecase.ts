import { runJson, type RunJson } from '../run-json';
import { encodeRunQueryCursor } from './run-query-cursor';
import type { RunQuery, RunQueryReader } from './run-query.types';

/** A page of runs as LangSmith answers `POST /runs/query`; the SDK follows `cursors.next` until it is null. */
export interface RunQueryPage {
  runs: RunJson[];
  cursors: { next: string | null; prev: null };
}

/** One page of runs for a query; reads one row past the limit to know whether another page follows. */
export async function queryRuns(reader: RunQueryReader, query: RunQuery): Promise<RunQueryPage> {
  const rows = await reader.find(query, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const next = rows.length > query.limit && last?.start_time_us ? encodeRunQueryCursor({ startTimeUs: last.start_time_us, id: last.id }) : null;
  return { runs: page.map(runJson), cursors: { next, prev: null } };
}
