import { accessFilterSql, binderOf, type AccessFilter } from '@platform/agent-server-data-access';
import type { SqlSession } from '@platform/prisma';
import type { RunRecord, RunStatus } from './run';
import { runColumns, toRunRecord, type RunRow } from './run-rows';

/** Where a page of {@link searchRuns} ended: the last run's status-change time (epoch µs) and id. */
export interface RunSearchCursor {
  changedUs: string;
  runId: string;
}

/** Runs of one assistant across its threads (A2A's ListTasks), every condition optional but the assistant. */
export interface RunSearchQuery {
  assistantId: string;
  threadId?: string;
  statuses?: RunStatus[];
  /**
   * true: only runs that ended leaving their thread waiting for input (the thread is interrupted and no later run
   * took it on); false: only the others.
   */
  waitingForInput?: boolean;
  /** Runs whose status last changed (ended, else last updated) after this time. */
  changedAfter?: Date;
  limit: number;
  after?: RunSearchCursor;
}

export interface RunSearchPage {
  runs: RunRecord[];
  /** Where the next page starts; null on the last page. */
  next: RunSearchCursor | null;
  /** Runs matching the query on all pages. */
  total: number;
}

const CHANGED = 'coalesce(r.ended_at, r.updated_at)';
const WAITING = `(r.status = 'success'
  AND EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = r.thread_id AND t.status = 'interrupted')
  AND NOT EXISTS (SELECT 1 FROM runs n WHERE n.thread_id = r.thread_id AND (n.created_at, n.run_id) > (r.created_at, r.run_id)))`;
// $1 assistant, $2 thread, $3 statuses (JSON list), $4 changed after, $5 waiting for input.
const MATCH = `r.assistant_id = $1::uuid
  AND ($2::uuid IS NULL OR r.thread_id = $2::uuid)
  AND ($3::jsonb IS NULL OR r.status IN (SELECT jsonb_array_elements_text($3::jsonb)))
  AND ($4::timestamptz IS NULL OR ${CHANGED} > $4::timestamptz)
  AND ($5::boolean IS NULL OR ${WAITING} = $5::boolean)`;
const CHANGED_US = `(extract(epoch FROM ${CHANGED}) * 1000000)::bigint`;

/**
 * Runs of an assistant, most recently changed first, a page at a time (keyset on status-change time and id).
 * No index covers a search without a thread: it scans the assistant's runs, which suits occasional listings.
 */
export async function searchRuns(sql: SqlSession, query: RunSearchQuery, visible?: AccessFilter): Promise<RunSearchPage> {
  const params: unknown[] = [
    query.assistantId,
    query.threadId ?? null,
    query.statuses ? JSON.stringify(query.statuses) : null,
    query.changedAfter?.toISOString() ?? null,
    query.waitingForInput ?? null,
  ];
  // Under the deployment's auth, only runs whose thread passes the caller's filter (bound from $6 on).
  const condition = accessFilterSql(visible, 't.metadata', binderOf(params));
  const match = condition ? `${MATCH} AND EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = r.thread_id AND ${condition})` : MATCH;
  const at = params.length;
  const rows = await sql.query<RunRow & { changed_us: string }>(
    `SELECT ${runColumns('r')}, ${CHANGED_US}::text AS changed_us FROM runs r
     WHERE ${match} AND ($${at + 1}::bigint IS NULL OR (${CHANGED_US}, r.run_id) < ($${at + 1}::bigint, $${at + 2}::uuid))
     ORDER BY ${CHANGED_US} DESC, r.run_id DESC LIMIT $${at + 3}`,
    [...params, query.after?.changedUs ?? null, query.after?.runId ?? null, query.limit + 1],
  );
  const [{ total }] = await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM runs r WHERE ${match}`, params);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    runs: page.map(toRunRecord),
    next: rows.length > query.limit && last ? { changedUs: last.changed_us, runId: last.run_id } : null,
    total: Number(total),
  };
}
