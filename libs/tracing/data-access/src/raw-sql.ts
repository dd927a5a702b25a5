import type { PrismaClient } from './generated/prisma/client';

/** Raw SQL with `$1..$n` parameters on one connection or transaction. */
export interface SqlQuery {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/**
 * Where ingestion runs its SQL: the Prisma client (`$queryRawUnsafe`, `$transaction`), or a `Database` of
 * `@platform/prisma` (a pg pool) where Prisma's per-statement cost on large JSON parameters matters.
 */
export interface IngestSql extends SqlQuery {
  transaction<T>(fn: (tx: SqlQuery) => Promise<T>): Promise<T>;
}

type RawClient = Pick<PrismaClient, '$queryRawUnsafe'>;

const over = (client: RawClient): SqlQuery => ({
  query: <Row>(sql: string, params: unknown[] = []) => client.$queryRawUnsafe<Row[]>(sql, ...params),
});

/** Ingestion SQL through the Prisma client (PGlite, tests). */
export function prismaIngestSql(prisma: PrismaClient, options: { maxWaitMs?: number; timeoutMs?: number } = {}): IngestSql {
  return {
    ...over(prisma),
    transaction: (fn) => prisma.$transaction((tx) => fn(over(tx)), { maxWait: options.maxWaitMs ?? 30_000, timeout: options.timeoutMs ?? 120_000 }),
  };
}

/** The Prisma calls `prismaUnsortedSql` makes. */
export type UnsortedSqlClient = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe' | '$transaction'>;

/**
 * Raw SQL through the Prisma client with sorts ruled out: each query runs in one batch transaction after
 * `SET LOCAL enable_sort = off`. Keyset paging pays off only as an ordered index walk that stops after `limit`
 * rows. With a selective filter or a large limit the planner may prefer reading the whole window and sorting it,
 * once per page; ruling out the sort keeps every page an index range scan.
 */
export function prismaUnsortedSql(prisma: UnsortedSqlClient): SqlQuery {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => {
      const [, rows] = await prisma.$transaction([prisma.$executeRawUnsafe('SET LOCAL enable_sort = off'), prisma.$queryRawUnsafe<Row[]>(sql, ...params)]);
      return rows;
    },
  };
}
