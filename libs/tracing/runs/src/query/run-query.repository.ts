import { RUN_SELECT, type RunRow } from '../run-row';
import { buildRunQuerySql } from './run-query.sql';
import type { RunQuery, RunQueryReader } from './run-query.types';

/** The one Prisma call the repository makes (the tracing PrismaClient fits). */
export interface RunQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** `POST /runs/query` pages from the `runs` table through Prisma raw SQL (fixed SQL text, bound values). */
export class PrismaRunQueryRepository implements RunQueryReader {
  constructor(private readonly prisma: RunQueryClient) {}

  find<Row = RunRow>(query: RunQuery, take: number | undefined, select = RUN_SELECT): Promise<Row[]> {
    const { sql, params } = buildRunQuerySql(query, take, select);
    return this.prisma.$queryRawUnsafe<Row[]>(sql, ...params);
  }
}
