import { microsToIso, type ExportableRunField } from '@platform/contracts';
import { RUN_STREAM_COLUMNS } from './run-stream-columns';
import type { RunStreamCursor, RunStreamEncoding } from './run-stream.types';
import { inlineSqlParams } from './sql-literals';

/** A compiled filter: a boolean SQL expression over alias `r` with its bound values. */
export interface CompiledRunFilter {
  sql: string;
  params: unknown[];
}

/** One keyset page: the window, where to resume, which columns, how many rows. */
export interface RunPageRequest {
  tenantId: string;
  sessionId: string;
  startUs: bigint;
  endUs: bigint;
  fields: readonly ExportableRunField[];
  /** Compiled with `firstParam: RUN_PAGE_FILTER_FIRST_PARAM`. */
  filter?: CompiledRunFilter;
  after?: RunStreamCursor;
  limit: number;
  /**
   * Stored bytes (as Postgres holds them, TOAST included) after which the page stops before `limit`: a row
   * starting past this is left to the next page; the first row always comes. Bounds a page of large runs.
   */
  maxStoredBytes?: number;
  /**
   * What the page is read for: `messages` (default), a column per field; `ndjson`, per run its cursor
   * (`start_time`, `id`) and `line`, the fields as one JSON object.
   */
  encoding?: RunStreamEncoding;
}

/** Filter parameters start after tenant, session and window ($1..$4), so one compiled filter serves every page. */
export const RUN_PAGE_FILTER_FIRST_PARAM = 5;

// The columns whose values can be large, by field: what a row's stored size is counted from.
const LARGE_COLUMNS: Partial<Record<ExportableRunField, string>> = {
  inputs: 'r.inputs',
  outputs: 'r.outputs',
  extra: 'r.extra',
  events: 'r.events',
  error: 'r.error',
  feedback_stats: 'r.feedback_stats',
};
// Everything else in a row (ids, names, times, tags, numbers), counted as one amount.
const SMALL_COLUMNS_BYTES = 512;

/**
 * A row's stored size in bytes: `pg_column_size` of its large selected columns, which reads the size of a
 * TOASTed value from its pointer without fetching or decompressing it.
 */
function storedBytesSql(fields: readonly ExportableRunField[]): string {
  const large = fields.flatMap((field) => (LARGE_COLUMNS[field] ? [`coalesce(pg_column_size(${LARGE_COLUMNS[field]}), 0)`] : []));
  return [...large, String(SMALL_COLUMNS_BYTES)].join(' + ');
}

/**
 * SQL of one page in (start_time, id) order. The predicates match the index
 * (tenant_id, session_id, start_time, id), so Postgres walks an index range from the cursor and stops
 * after `limit` rows; the row comparison resumes strictly after the cursor, so no row repeats.
 *
 * With `maxStoredBytes`, the limited rows go through a running sum of their stored size and only those that
 * start within the budget are kept, each with its `stored_bytes`. Their values are read only then, so a row past
 * the budget costs an index entry and a heap tuple, never its large values.
 */
export function buildRunPageSql(page: RunPageRequest): { sql: string; params: unknown[] } {
  const params: unknown[] = [page.tenantId, page.sessionId, microsToIso(page.startUs), microsToIso(page.endUs)];
  const where = [
    'r.tenant_id = $1::uuid',
    'r.session_id = $2::uuid',
    'r.has_create',
    'r.start_time >= $3::timestamptz',
    'r.start_time < $4::timestamptz',
  ];
  if (page.filter) {
    params.push(...page.filter.params);
    where.push(`(${page.filter.sql})`);
  }
  if (page.after) {
    params.push(microsToIso(page.after.startTimeUs), page.after.id);
    where.push(`(r.start_time, r.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(page.limit);
  const order = 'ORDER BY r.start_time, r.id';
  let source = 'runs r';
  let tail = `WHERE ${where.join(' AND ')} ${order} LIMIT $${params.length}`;
  let bytes = '';
  if (page.maxStoredBytes !== undefined) {
    const storedBytes = storedBytesSql(page.fields);
    params.push(page.maxStoredBytes);
    source = `(SELECT r.*, ${storedBytes} AS stored_bytes, sum(${storedBytes}) OVER (${order} ROWS UNBOUNDED PRECEDING) AS stored_through FROM ${source} ${tail}) r`;
    tail = `WHERE r.stored_through - r.stored_bytes < $${params.length} ${order}`;
    bytes = ', r.stored_bytes';
  }
  const columns = page.fields.map((field) => `${RUN_STREAM_COLUMNS[field]} AS ${field}`).join(', ');
  if (page.encoding === 'ndjson') {
    // Postgres writes each line: `row_to_json` of the columns (their names are the keys, in order, no spaces),
    // so the page holds one string per run instead of a value per field, and nothing is stringified here.
    const cursor = `${RUN_STREAM_COLUMNS.start_time} AS start_time, ${RUN_STREAM_COLUMNS.id} AS id`;
    return { sql: `SELECT ${cursor}, row_to_json(line)::text AS line${bytes} FROM ${source} CROSS JOIN LATERAL (SELECT ${columns}) line ${tail}`, params };
  }
  return { sql: `SELECT ${columns}${bytes} FROM ${source} ${tail}`, params };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkedUuid(value: string, name: string): string {
  if (!UUID.test(value)) throw new Error(`${name} must be a UUID`);
  return value;
}

function checkedCount(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

/**
 * The `ndjson` page's SELECT with its values written in as literals, for `COPY (...) TO STDOUT (FORMAT binary)`,
 * which takes no bind parameters: the same statement as {@link buildRunPageSql}'s, value for value. The page's own
 * values are checked first (ids are UUIDs, limits are integers; times are written by `microsToIso`), and every value,
 * the filter's included, becomes a quoted literal (`inlineSqlParams`).
 */
export function buildRunPageCopySql(page: RunPageRequest): string {
  if (page.encoding !== 'ndjson') throw new Error('Only an ndjson page is read by COPY');
  checkedUuid(page.tenantId, 'tenantId');
  checkedUuid(page.sessionId, 'sessionId');
  if (page.after) checkedUuid(page.after.id, 'after.id');
  checkedCount(page.limit, 'limit');
  if (page.maxStoredBytes !== undefined) checkedCount(page.maxStoredBytes, 'maxStoredBytes');
  const { sql, params } = buildRunPageSql(page);
  return inlineSqlParams(sql, params);
}
