import type { Run } from '@platform/contracts';
import type { CopyTuple, SqlQuery, UnsortedCopySql } from '@platform/tracing-data-access';
import { buildRunPageCopySql, buildRunPageSql, type RunPageRequest } from './run-page.sql';
import { PageBufferPool } from './page-buffer-pool';
import { MessageRunPage, NdjsonPageWriter, NdjsonRunPage, type NdjsonRunRow, type RunPage } from './run-pages';

/** Reads keyset pages of runs. */
export interface RunPageReader {
  readPage(page: RunPageRequest): Promise<RunPage>;
}

type RawRow = Record<string, string | boolean | string[] | null> & { stored_bytes?: number };

// Per-field framing in protobuf (tag + length) is a few bytes; counting 4 keeps the estimate on the safe side.
const FIELD_OVERHEAD = 4;

function sizeOf(value: string | boolean | string[]): number {
  if (typeof value === 'string') return Buffer.byteLength(value) + FIELD_OVERHEAD;
  if (typeof value === 'boolean') return FIELD_OVERHEAD;
  let bytes = 0;
  for (const item of value) bytes += Buffer.byteLength(item) + FIELD_OVERHEAD;
  return bytes;
}

/** Whether a short page stopped at its byte budget rather than at the end of the window. */
function truncated(page: RunPageRequest, rows: readonly { stored_bytes?: number }[]): boolean {
  let bytes = 0;
  for (const row of rows) bytes += Number(row.stored_bytes ?? 0);
  return cutByBytes(page, rows.length, bytes);
}

function cutByBytes(page: RunPageRequest, count: number, storedBytes: number): boolean {
  if (page.maxStoredBytes === undefined || count >= page.limit) return false;
  // A row was left out only if the kept ones had already reached the budget.
  return storedBytes >= page.maxStoredBytes;
}

// The first NDJSON page's buffer before it has seen any run; later pages start at the size the last one averaged.
const FIRST_PAGE_BYTES = 1024 * 1024;
const MAX_PAGE_ESTIMATE_BYTES = 64 * 1024 * 1024;
const ESTIMATE_HEADROOM = 1.15;

/** The bytes of field `index` of a COPY tuple, read as a big-endian integer (int4 or int8). */
function integerField(tuple: CopyTuple, index: number): number {
  const start = tuple.starts[index];
  const length = tuple.ends[index] - start;
  if (start < 0) return 0;
  if (length === 4) return tuple.data.readInt32BE(start);
  if (length === 8) return Number(tuple.data.readBigInt64BE(start));
  throw new Error(`stored_bytes: unexpected binary length ${length}`);
}

/**
 * Keyset pages of the `runs` table as raw SQL (column text fixed, values bound), run by the tracing database's
 * `prismaUnsortedSql(db.prisma)`: each page in one batch transaction with sorts ruled out, so that every page is an
 * ordered index range scan that stops after `limit` rows.
 *
 * With `copy` (Postgres), an `ndjson` page is read by a binary COPY of the same SELECT instead, its values written
 * in as literals: each line arrives as the bytes Postgres wrote and goes straight into the page's buffer, with no
 * JS string decoded and encoded again per run. PGlite (no `copy`) and the `messages` encoding use the query.
 */
export class RunPageRepository implements RunPageReader {
  /** Line bytes per run of the last NDJSON page read by COPY: the next page's buffer is sized from it. */
  private lineBytesPerRun = 0;
  /** And its line bytes per stored byte (TOAST may compress what the lines spell out). */
  private lineBytesPerStoredByte = 0;

  /**
   * @param buffers the COPY pages' buffers, each reused once its page and the page's batches are released (see
   * `releaseRunBatch`)
   */
  constructor(
    private readonly sql: SqlQuery,
    private readonly copy?: UnsortedCopySql,
    private readonly buffers = new PageBufferPool(),
  ) {}

  async readPage(page: RunPageRequest): Promise<RunPage> {
    if (page.encoding === 'ndjson' && this.copy) return this.copyNdjsonPage(page, this.copy);
    const { sql, params } = buildRunPageSql(page);
    if (page.encoding === 'ndjson') {
      const rows = await this.query<NdjsonRunRow & { stored_bytes?: number }>(sql, params);
      return NdjsonRunPage.fromRows(rows, truncated(page, rows));
    }
    const rows = await this.query<RawRow>(sql, params);
    const runs: Run[] = new Array(rows.length);
    const sizes: number[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      // Column aliases are the proto field names; nulls stay absent, as the proto says.
      const run: Record<string, unknown> = {};
      let bytes = FIELD_OVERHEAD;
      for (const field of page.fields) {
        const value = row[field];
        if (value === null || value === undefined) continue;
        run[field] = value;
        bytes += sizeOf(value);
      }
      runs[i] = run as Run;
      sizes[i] = bytes;
    }
    return new MessageRunPage(runs, sizes, truncated(page, rows));
  }

  /** An `ndjson` page by binary COPY: per tuple start_time, id, line (text) and, with a byte budget, stored_bytes. */
  private async copyNdjsonPage(page: RunPageRequest, copy: UnsortedCopySql): Promise<RunPage> {
    const select = buildRunPageCopySql(page);
    const fields = page.maxStoredBytes === undefined ? 3 : 4;
    // The page's lines as the last page measured them: per run, times the rows asked for, and per stored byte, times
    // the byte budget (whichever stops the page first), with room for pages of somewhat larger runs, since growing
    // copies the whole buffer.
    let estimate = FIRST_PAGE_BYTES;
    if (this.lineBytesPerRun > 0) {
      estimate = this.lineBytesPerRun * page.limit;
      if (page.maxStoredBytes !== undefined && this.lineBytesPerStoredByte > 0) estimate = Math.min(estimate, this.lineBytesPerStoredByte * page.maxStoredBytes);
      estimate = Math.min(MAX_PAGE_ESTIMATE_BYTES, Math.ceil(estimate * ESTIMATE_HEADROOM));
    }
    const writer = new NdjsonPageWriter(estimate, page.limit, this.buffers);
    let storedBytes = 0;
    await copy.copyOut(select, (tuple) => {
      const { data, starts, ends } = tuple;
      if (tuple.count !== fields) throw new Error(`ndjson page: expected ${fields} columns, got ${tuple.count}`);
      if (starts[0] < 0 || starts[1] < 0 || starts[2] < 0) throw new Error('ndjson page: null start_time, id or line');
      writer.add(data, starts[0], ends[0], starts[1], ends[1], starts[2], ends[2]);
      if (fields === 4) storedBytes += integerField(tuple, 3);
    });
    if (writer.count > 0) this.lineBytesPerRun = writer.bytes / writer.count;
    if (storedBytes > 0) this.lineBytesPerStoredByte = writer.bytes / storedBytes;
    return writer.finish(cutByBytes(page, writer.count, storedBytes));
  }

  /** The plan Postgres uses for a page (EXPLAIN), for tests and benchmarks. */
  async explain(page: RunPageRequest): Promise<string> {
    const { sql, params } = buildRunPageSql(page);
    const rows = await this.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.sql.query<T>(sql, params);
  }
}
