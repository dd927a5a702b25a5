import type { RunRow } from '../run-row';
import { buildRunQuerySql } from './run-query.sql';
import type { RunQuery, RunQueryReader } from './run-query.types';

/** The one Prisma call the repository makes (the tracing PrismaClient fits). */
export interface RunQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** `POST /runs/query` pages from the `runs` table through Prisma raw SQL (fixed SQL text, bound values). */
export class PrismaRunQueryRepository implements RunQueryReader {
  constructor(private readonly prisma: RunQueryClient) {}

  find(query: RunQuery, take: number): Promise<RunRow[]> {
    const { sql, params } = buildRunQuerySql(query, take);
    return this.prisma.$queryRawUnsafe<RunRow[]>(sql, ...params);
  }
}
