import type { SqlQuery } from '@platform/tracing-data-access';
import { RUN_SELECT, type RunRow } from '../run-row';
import { buildRunQuerySql } from './run-query.sql';
import type { RunQuery, RunQueryReader } from './run-query.types';

/**
 * `POST /runs/query` pages from the `runs` table as raw SQL (fixed SQL text, bound values), run by the tracing
 * database's `prismaIngestSql(db.prisma)` (`$queryRawUnsafe`).
 */
export class RunQueryRepository implements RunQueryReader {
  constructor(private readonly sql: SqlQuery) {}

  find<Row = RunRow>(query: RunQuery, take: number | undefined, select = RUN_SELECT): Promise<Row[]> {
    const { sql, params } = buildRunQuerySql(query, take, select);
    return this.sql.query<Row>(sql, params);
  }
}
