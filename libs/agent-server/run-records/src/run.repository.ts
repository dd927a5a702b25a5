import { accessFilterSql, binderOf, type AccessFilter } from '@platform/agent-server-data-access';
import { ConflictError, NotFoundError } from '@platform/errors';
import type { SqlSession } from '@platform/prisma';
import { isFinished, type CancelAction, type RunEnd, type RunRecord, type RunStatus } from './run';
import { cancelRuns, settleIdleThreads, type InflightRun } from './run-cancel.sql';
import { RUN_COLUMNS, runColumns, toRunRecord, type RunRow } from './run-rows';

// Worded as LangGraph's API server words them (the SDK shows them as the error's message).
export const runNotFound = () => new NotFoundError('Run not found');
export const threadNotFound = (threadId: string) => new NotFoundError(`Thread with ID ${threadId} not found`);
export const noAssistantFor = (assistantId: string) =>
  new NotFoundError(`No assistant found for "${assistantId}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`);

export interface CancelFilter {
  threadId?: string;
  runIds?: string[];
  /** Which in-flight runs: pending, running or both (`all`). */
  status?: 'pending' | 'running' | 'all';
  /** Only runs of threads the caller's filter (the deployment's auth) lets through. */
  visible?: AccessFilter;
}

/**
 * Reads, lists, deletes and cancels runs. `visible` is the caller's filter from the deployment's auth, on the
 * metadata of the run's thread (as LangGraph applies it): a run of a thread it hides is not there.
 */
export interface RunRepository {
  find(runId: string, threadId?: string, visible?: AccessFilter): Promise<RunRecord | null>;
  /** The run of that thread, or NotFoundError. */
  get(threadId: string, runId: string, visible?: AccessFilter): Promise<RunRecord>;
  /** Runs of a thread, newest first; NotFoundError when the thread does not exist. */
  list(threadId: string, query: { limit: number; offset: number; status?: RunStatus }, visible?: AccessFilter): Promise<RunRecord[]>;
  /**
   * Deletes an ended or pending run with its events and the checkpoints it wrote (as LangGraph's API servers do); a
   * running one is a ConflictError. Returns the run's graph id when checkpoints went (the thread's state changed).
   */
  delete(threadId: string, runId: string, visible?: AccessFilter): Promise<string | null>;
  /** Cancels the in-flight runs matching the filter; returns those it found. */
  cancel(filter: CancelFilter, action: CancelAction): Promise<InflightRun[]>;
  /** Status and output of a run, or null when it does not exist (any more). */
  end(runId: string): Promise<RunEnd | null>;
  /** The cached values of a thread as JSON text, or null. */
  threadValues(threadId: string): Promise<string | null>;
  /** The thread a run belongs to, or null. */
  threadOf(runId: string): Promise<string | null>;
  /** Whether the thread exists. */
  threadExists(threadId: string, visible?: AccessFilter): Promise<boolean>;
  /** The thread's run in flight (running, else the first pending), or null. */
  currentRun(threadId: string): Promise<RunPosition | null>;
  /** The thread's newest run, or null. */
  latestRun(threadId: string): Promise<RunPosition | null>;
  /** Where a run stands in its thread, or null when it does not exist. */
  position(runId: string): Promise<RunPosition | null>;
  /** The first run of the thread created after `after` (any status), or null. */
  nextRun(threadId: string, after: RunPosition | null): Promise<RunPosition | null>;
}

/** Where a run stands in its thread's arrival order (`created_at` as Postgres prints it: microseconds kept). */
export interface RunPosition {
  run_id: string;
  created_at: string;
}

// ` AND <the thread t passes the caller's filter>`; ` AND <the run's thread does>` with `ofRun` (the runs table's
// name or alias); nothing without a filter.
function visibleSql(visible: AccessFilter | undefined, params: unknown[], ofRun?: string): string {
  const condition = accessFilterSql(visible, 't.metadata', binderOf(params));
  if (!condition) return '';
  return ofRun ? ` AND EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = ${ofRun}.thread_id AND ${condition})` : ` AND ${condition}`;
}

export function createRunRepository(sql: SqlSession): RunRepository {
  const find: RunRepository['find'] = async (runId, threadId, visible) => {
    const params: unknown[] = [runId, threadId ?? null];
    const rows = await sql.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = $1::uuid AND ($2::uuid IS NULL OR thread_id = $2::uuid)${visibleSql(visible, params, 'runs')}`,
      params,
    );
    return rows[0] ? toRunRecord(rows[0]) : null;
  };

  return {
    find,

    async get(threadId, runId, visible) {
      const run = await find(runId, threadId, visible);
      if (!run) throw runNotFound();
      return run;
    },

    async list(threadId, { limit, offset, status }, visible) {
      const params: unknown[] = [threadId, status ?? null, limit, offset];
      const rows = await sql.query<RunRow>(
        `SELECT ${runColumns('r')}
         FROM threads t LEFT JOIN LATERAL (
           SELECT * FROM runs WHERE thread_id = t.thread_id AND ($2::text IS NULL OR status = $2)
           ORDER BY created_at DESC, run_id DESC LIMIT $3 OFFSET $4) r ON true
         WHERE t.thread_id = $1::uuid${visibleSql(visible, params)}`,
        params,
      );
      if (rows.length === 0) throw threadNotFound(threadId);
      return rows.filter((row) => row.run_id !== null).map(toRunRecord);
    },

    async delete(threadId, runId, visible) {
      return sql.transaction(async (tx) => {
        const params: unknown[] = [runId, threadId];
        const [row] = await tx.query<{ status: RunStatus; graph_id: string | null }>(
          `SELECT status, kwargs #>> '{config,configurable,graph_id}' AS graph_id FROM runs
           WHERE run_id = $1::uuid AND thread_id = $2::uuid${visibleSql(visible, params, 'runs')} FOR UPDATE`,
          params,
        );
        if (!row) throw runNotFound();
        if (row.status === 'running') throw new ConflictError(`Run '${runId}' is running: cancel it before deleting it`);
        await tx.query(`DELETE FROM run_events WHERE run_id = $1::uuid`, [runId]);
        await tx.query(`DELETE FROM runs WHERE run_id = $1::uuid`, [runId]);
        if (row.status === 'pending') await settleIdleThreads(tx, [threadId]);
        const [deleted] = await tx.query<{ count: number }>(
          `WITH c AS (DELETE FROM checkpoints WHERE thread_id = $1 AND metadata @> jsonb_build_object('run_id', $2::text)
                      RETURNING checkpoint_ns, checkpoint_id),
           w AS (DELETE FROM checkpoint_writes w USING c
                 WHERE w.thread_id = $1 AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id)
           SELECT count(*)::int AS count FROM c`,
          [threadId, runId],
        );
        return Number(deleted?.count ?? 0) > 0 ? row.graph_id : null;
      });
    },

    async cancel(filter, action) {
      const statuses = filter.status === 'pending' ? ['pending'] : filter.status === 'running' ? ['running'] : ['pending', 'running'];
      return sql.transaction(async (tx) => {
        const params: unknown[] = [statuses, filter.threadId ?? null, filter.runIds?.length ? filter.runIds : null];
        const runs = await tx.query<InflightRun>(
          `SELECT run_id::text AS run_id, thread_id::text AS thread_id, status FROM runs
           WHERE status = ANY($1::text[]) AND ($2::uuid IS NULL OR thread_id = $2::uuid)
             AND ($3::uuid[] IS NULL OR run_id = ANY($3::uuid[]))${visibleSql(filter.visible, params, 'runs')}
           ORDER BY created_at FOR UPDATE`,
          params,
        );
        await cancelRuns(tx, runs, action);
        await settleIdleThreads(
          tx,
          runs.filter((run) => run.status === 'pending').map((run) => run.thread_id),
        );
        return runs;
      });
    },

    async end(runId) {
      const [row] = await sql.query<{ status: RunStatus; output: string | null }>(`SELECT status, output FROM runs WHERE run_id = $1::uuid`, [
        runId,
      ]);
      if (!row) return null;
      return { status: row.status, output: isFinished(row.status) ? row.output : null };
    },

    async threadOf(runId) {
      const [row] = await sql.query<{ thread_id: string }>(`SELECT thread_id::text AS thread_id FROM runs WHERE run_id = $1::uuid`, [runId]);
      return row?.thread_id ?? null;
    },

    async threadExists(threadId, visible) {
      const params: unknown[] = [threadId];
      return (await sql.query(`SELECT 1 FROM threads t WHERE thread_id = $1::uuid${visibleSql(visible, params)}`, params)).length > 0;
    },

    async currentRun(threadId) {
      const [row] = await sql.query<RunPosition>(
        `SELECT run_id::text AS run_id, created_at::text AS created_at FROM runs WHERE thread_id = $1::uuid AND status IN ('pending', 'running')
         ORDER BY status = 'running' DESC, created_at, run_id LIMIT 1`,
        [threadId],
      );
      return row ?? null;
    },

    async position(runId) {
      const [row] = await sql.query<RunPosition>(`SELECT run_id::text AS run_id, created_at::text AS created_at FROM runs WHERE run_id = $1::uuid`, [runId]);
      return row ?? null;
    },

    async latestRun(threadId) {
      const [row] = await sql.query<RunPosition>(
        `SELECT run_id::text AS run_id, created_at::text AS created_at FROM runs WHERE thread_id = $1::uuid ORDER BY created_at DESC, run_id DESC LIMIT 1`,
        [threadId],
      );
      return row ?? null;
    },

    async nextRun(threadId, after) {
      const [row] = await sql.query<RunPosition>(
        `SELECT run_id::text AS run_id, created_at::text AS created_at FROM runs
         WHERE thread_id = $1::uuid AND ($2::timestamptz IS NULL OR (created_at, run_id) > ($2::timestamptz, $3::uuid))
         ORDER BY created_at, run_id LIMIT 1`,
        [threadId, after?.created_at ?? null, after?.run_id ?? null],
      );
      return row ?? null;
    },

    async threadValues(threadId) {
      const [row] = await sql.query<{ values: string | null }>(`SELECT values::text AS values FROM threads WHERE thread_id = $1::uuid`, [threadId]);
      return row?.values ?? null;
    },
  };
}
