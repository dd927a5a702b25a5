import type { AccessFilter } from '../access-filter';
import { accessFilterSql, binderOf } from '../access-filter.sql';
import type { SortOrder } from '../sort-order';
import type { AssistantFilter, AssistantQuery, AssistantSortBy } from './assistant';
import { ASSISTANT_COLUMNS } from './assistant-row';

/** A statement with its bound parameters ($1, $2, ...). */
export interface BoundSql {
  sql: string;
  params: unknown[];
}

const SORT_COLUMNS: Record<AssistantSortBy, string> = {
  assistant_id: 'a.assistant_id',
  graph_id: 'a.graph_id',
  name: 'a.name',
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
};

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(filter: AssistantFilter, params: unknown[], visible: AccessFilter | undefined): string {
  const where: string[] = [];
  const bind = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.metadata && Object.keys(filter.metadata).length > 0) bind((p) => `a.metadata @> ${p}::jsonb`, JSON.stringify(filter.metadata));
  if (filter.graph_id) bind((p) => `a.graph_id = ${p}`, filter.graph_id);
  if (filter.name) bind((p) => `a.name ILIKE ${p}`, likePattern(filter.name));
  const allowed = accessFilterSql(visible, 'a.metadata', binderOf(params));
  if (allowed) where.push(allowed);
  return where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
}

/** Assistants matching the filter, one page; sort columns come from a fixed table, values are bound parameters. */
export function searchAssistantsSql(query: AssistantQuery, visible?: AccessFilter): BoundSql {
  const params: unknown[] = [];
  const where = whereOf(query, params, visible);
  const order: SortOrder = query.sortOrder ?? 'desc';
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  params.push(query.limit, query.offset);
  const sql =
    `SELECT ${ASSISTANT_COLUMNS} FROM assistants a${where}` +
    ` ORDER BY ${SORT_COLUMNS[query.sortBy ?? 'created_at']} ${direction}, a.assistant_id ${direction}` +
    ` LIMIT $${params.length - 1} OFFSET $${params.length}`;
  return { sql, params };
}

export function countAssistantsSql(filter: AssistantFilter, visible?: AccessFilter): BoundSql {
  const params: unknown[] = [];
  return { sql: `SELECT count(*)::int AS count FROM assistants a${whereOf(filter, params, visible)}`, params };
}
