import type { Run } from '@platform/contracts';
import type { SqlQuery } from '@platform/tracing-data-access';
import { buildRunPageSql, type RunPageRequest } from './run-page.sql';
import { MessageRunPage, NdjsonRunPage, type NdjsonRunRow, type RunPage } from './run-pages';

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
  if (page.maxStoredBytes === undefined || rows.length >= page.limit) return false;
  let bytes = 0;
  for (const row of rows) bytes += Number(row.stored_bytes ?? 0);
  // A row was left out only if the kept ones had already reached the budget.
  return bytes >= page.maxStoredBytes;
}

/**
 * Keyset pages of the `runs` table as raw SQL (column text fixed, values bound), run by the tracing database's
 * `prismaUnsortedSql(db.prisma)`: each page in one batch transaction with sorts ruled out, so that every page is an
 * ordered index range scan that stops after `limit` rows.
 */
export class RunPageRepository implements RunPageReader {
  constructor(private readonly sql: SqlQuery) {}

  async readPage(page: RunPageRequest): Promise<RunPage> {
    const { sql, params } = buildRunPageSql(page);
    if (page.encoding === 'ndjson') {
      const rows = await this.query<NdjsonRunRow & { stored_bytes?: number }>(sql, params);
      return new NdjsonRunPage(rows, truncated(page, rows));
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
