import type { SqlSession } from '@platform/prisma';
import type { RunPosition } from '@platform/agent-server-run-records';

/** A run's place among its thread's runs in arrival order (0 for the first): the high part of a protocol `seq`. */
export interface RunOrdinals {
  /** The run's ordinal and the graph it runs (null when the run is gone). */
  of(threadId: string, runId: string): Promise<{ ordinal: number; graphId: string | undefined }>;
  /** The thread's run at that place, or null. */
  at(threadId: string, ordinal: number): Promise<RunPosition | null>;
}

export function createRunOrdinals(sql: SqlSession): RunOrdinals {
  return {
    async of(threadId, runId) {
      const [row] = await sql.query<{ n: number; graph_id: string | null }>(
        `SELECT (SELECT count(*)::int FROM runs r WHERE r.thread_id = $1::uuid AND (r.created_at, r.run_id) < (me.created_at, me.run_id)) AS n,
                me.kwargs #>> '{config,configurable,graph_id}' AS graph_id
         FROM runs me WHERE me.run_id = $2::uuid`,
        [threadId, runId],
      );
      return { ordinal: Number(row?.n ?? 0), graphId: row?.graph_id ?? undefined };
    },
    async at(threadId, ordinal) {
      const [row] = await sql.query<RunPosition>(
        `SELECT run_id::text AS run_id, created_at::text AS created_at FROM runs WHERE thread_id = $1::uuid
         ORDER BY created_at, run_id OFFSET $2 LIMIT 1`,
        [threadId, ordinal],
      );
      return row ?? null;
    },
  };
}
