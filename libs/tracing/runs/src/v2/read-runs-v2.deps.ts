import { type AttachmentUrlDeps, attachmentUrls, type RunAttachmentUrls } from '../attachments/attachment-urls';
import { encodeRunQueryCursor } from '../query/run-query-cursor';
import type { RunQuery, RunQueryReader } from '../query/run-query.types';
import { type RunV2, runV2Json, type RunV2Row } from './run-v2-json';
import { type RunColumnOptions, runV2Select } from './run-v2.columns';
import type { RunSelectField } from './run-select-fields';

export interface ReadRunsV2Deps {
  reader: RunQueryReader;
  /** Where `ATTACHMENTS` links come from. */
  attachments: AttachmentUrlDeps;
  now?: () => number;
}

/** Who asks, and the public base URL attachment links are made under. */
export interface V2Caller {
  tenantId: string;
  baseUrl: string;
}

/** A page of the v2 API: `next_cursor` is null on the last page. */
export interface V2Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface TraceV2 {
  root_run: RunV2;
  trace_aggregates?: Record<string, unknown>;
  query_metadata: null;
}

/** Reads rows for a query and renders them with the selected fields (and attachment links when selected). */
export async function readRuns(
  deps: ReadRunsV2Deps,
  caller: V2Caller,
  read: { query: RunQuery; take: number | undefined; selects: ReadonlySet<RunSelectField>; columns: RunColumnOptions & { traceAggregates?: boolean } },
) {
  const rows = await deps.reader.find<RunV2Row>(read.query, read.take, runV2Select(read.selects, read.columns));
  const links = read.selects.has('ATTACHMENTS')
    ? await attachmentUrls(deps.attachments, caller.tenantId, rows.map((r) => r.id), caller.baseUrl)
    : new Map<string, RunAttachmentUrls>();
  return { rows, render: (row: RunV2Row) => runV2Json(row, read.selects, links.get(row.id)) };
}

/** The rows of one page (read one past the limit) and the cursor of the next, if any. */
export function paged<R extends RunV2Row>(rows: R[], limit: number): { page: R[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next = rows.length > limit && last?.start_time_us ? encodeRunQueryCursor({ startTimeUs: last.start_time_us, id: last.id }) : null;
  return { page, next };
}
