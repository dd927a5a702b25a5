import { accessFilterSql, binderOf, type AccessFilter } from '@platform/agent-server-data-access';
import type { CronFilter, CronQuery, CronSortBy } from './cron';
import { CRON_COLUMNS } from './cron-row';

const SORT_COLUMNS: Record<CronSortBy, string> = {
  cron_id: 'cron_id',
  assistant_id: 'assistant_id',
  thread_id: 'thread_id',
  created_at: 'created_at',
  updated_at: 'updated_at',
  next_run_date: 'next_run_date',
};

function whereOf(filter: CronFilter, params: unknown[], visible: AccessFilter | undefined): string {
  const where: string[] = [];
  const bind = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.assistant_id) bind((p) => `assistant_id = ${p}::uuid`, filter.assistant_id);
  if (filter.thread_id) bind((p) => `thread_id = ${p}::uuid`, filter.thread_id);
  if (filter.enabled !== undefined) bind((p) => `enabled = ${p}::boolean`, filter.enabled);
  if (filter.metadata && Object.keys(filter.metadata).length > 0) bind((p) => `metadata @> ${p}::jsonb`, JSON.stringify(filter.metadata));
  const allowed = accessFilterSql(visible, 'metadata', binderOf(params));
  if (allowed) where.push(allowed);
  return where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
}

/** Crons matching the filter, one page, newest first unless told otherwise; sort columns come from a fixed table. */
export function searchCronsSql(query: CronQuery, visible?: AccessFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = whereOf(query, params, visible);
  const direction = (query.sortOrder ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  const column = SORT_COLUMNS[query.sortBy ?? 'created_at'];
  params.push(query.limit, query.offset);
  const sql =
    `SELECT ${CRON_COLUMNS} FROM crons${where} ORDER BY ${column} ${direction} NULLS LAST, cron_id ${direction}` +
    ` LIMIT $${params.length - 1}::int OFFSET $${params.length}::int`;
  return { sql, params };
}

export function countCronsSql(filter: CronFilter, visible?: AccessFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  return { sql: `SELECT count(*)::int AS count FROM crons${whereOf(filter, params, visible)}`, params };
}
