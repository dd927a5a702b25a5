import type { SqlSession } from '@platform/prisma';
import type { RunPosition } from './run.repository';

/** A run's place among its thread's runs in arrival order (0 for the first): the high part of a protocol `seq`. */
export interface RunOrdinals {
  of(threadId: string, runId: string): Promise<number>;
  /** The thread's run at that place, or null. */
  at(threadId: string, ordinal: number): Promise<RunPosition | null>;
}

export function createRunOrdinals(sql: SqlSession): RunOrdinals {
  return {
    async of(threadId, runId) {
      const [row] = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM runs r, (SELECT created_at, run_id FROM runs WHERE run_id = $2::uuid) me
         WHERE r.thread_id = $1::uuid AND (r.created_at, r.run_id) < (me.created_at, me.run_id)`,
        [threadId, runId],
      );
      return Number(row?.n ?? 0);
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
