import type { AccessFilter } from '../access-filter';
import { accessFilterSql, binderOf } from '../access-filter.sql';
import type { SortOrder } from '../sort-order';
import type { ThreadFilter, ThreadQuery, ThreadSortBy } from './thread';
import { THREAD_COLUMNS } from './thread-row';

/** A statement with its bound parameters ($1, $2, ...). */
export interface BoundSql {
  sql: string;
  params: unknown[];
}

const SORT_COLUMNS: Record<ThreadSortBy, string> = {
  thread_id: 't.thread_id',
  status: 't.status',
  created_at: 't.created_at',
  updated_at: 't.updated_at',
  // The select-list alias (THREAD_COLUMNS); Postgres accepts a bare output name in ORDER BY.
  state_updated_at: 'state_updated_at',
};

/** ` AND <the thread row t passes the caller's filter>`, or nothing without a filter. */
export function visibleThreadSql(visible: AccessFilter | undefined, params: unknown[]): string {
  const condition = accessFilterSql(visible, 't.metadata', binderOf(params));
  return condition ? ` AND ${condition}` : '';
}

function whereOf(filter: ThreadFilter, params: unknown[], visible: AccessFilter | undefined): string {
  const where: string[] = [];
  const bind = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  // An empty object contains nothing to match, as the reference servers treat it.
  if (filter.metadata && Object.keys(filter.metadata).length > 0) bind((p) => `t.metadata @> ${p}::jsonb`, JSON.stringify(filter.metadata));
  if (filter.values && Object.keys(filter.values).length > 0) bind((p) => `t."values" @> ${p}::jsonb`, JSON.stringify(filter.values));
  if (filter.status) bind((p) => `t.status = ${p}`, filter.status);
  if (filter.ids && filter.ids.length > 0) bind((p) => `t.thread_id IN (SELECT jsonb_array_elements_text(${p}::jsonb)::uuid)`, JSON.stringify(filter.ids));
  const allowed = accessFilterSql(visible, 't.metadata', binderOf(params));
  if (allowed) where.push(allowed);
  return where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
}

/**
 * Threads matching the filter, one page, newest first unless told otherwise. Raw SQL for JSONB containment;
 * sort columns come from a fixed table and every value is a bound parameter.
 */
export function searchThreadsSql(query: ThreadQuery, visible?: AccessFilter): BoundSql {
  const params: unknown[] = [];
  const where = whereOf(query, params, visible);
  const column = SORT_COLUMNS[query.sortBy ?? 'created_at'];
  const order: SortOrder = query.sortOrder ?? 'desc';
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  params.push(query.limit, query.offset);
  const sql =
    `SELECT ${THREAD_COLUMNS} FROM threads t${where}` +
    ` ORDER BY ${column} ${direction}, t.thread_id ${direction} LIMIT $${params.length - 1} OFFSET $${params.length}`;
  return { sql, params };
}

export function countThreadsSql(filter: ThreadFilter, visible?: AccessFilter): BoundSql {
  const params: unknown[] = [];
  return { sql: `SELECT count(*)::int AS count FROM threads t${whereOf(filter, params, visible)}`, params };
}
