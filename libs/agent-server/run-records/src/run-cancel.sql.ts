import type { SqlRunner } from '@platform/prisma';
import type { CancelAction, RunStatus } from './run';
import { RUN_CHANNELS } from './run-channels';

export interface InflightRun {
  run_id: string;
  thread_id: string;
  status: RunStatus;
}

/**
 * Cancels runs inside the caller's transaction. Pending runs end here (`interrupt`: status interrupted;
 * `rollback`: deleted with their events); running ones get `cancel_action` and a NOTIFY, and the replica executing
 * them stops them. Followers of runs that ended here are told (`d <run_id>`) on commit.
 */
export async function cancelRuns(tx: SqlRunner, runs: InflightRun[], action: CancelAction): Promise<void> {
  const pending = runs.filter((run) => run.status === 'pending').map((run) => run.run_id);
  const running = runs.filter((run) => run.status === 'running').map((run) => run.run_id);
  if (pending.length > 0) {
    if (action === 'rollback') {
      await tx.query(
        `WITH gone AS (DELETE FROM runs WHERE run_id = ANY($1::uuid[]) AND status = 'pending' RETURNING run_id)
         DELETE FROM run_events WHERE run_id IN (SELECT run_id FROM gone)`,
        [pending],
      );
    } else {
      await tx.query(
        `UPDATE runs SET status = 'interrupted', ended_at = now(), updated_at = now()
         WHERE run_id = ANY($1::uuid[]) AND status = 'pending'`,
        [pending],
      );
    }
    await tx.query(`SELECT pg_notify($2, 'd ' || id) FROM unnest($1::text[]) AS id`, [pending, RUN_CHANNELS.events]);
  }
  if (running.length > 0) {
    await tx.query(`UPDATE runs SET cancel_action = $2, updated_at = now() WHERE run_id = ANY($1::uuid[]) AND status = 'running'`, [
      running,
      action,
    ]);
    await tx.query(`SELECT pg_notify($3, id || ' ' || $2) FROM unnest($1::text[]) AS id`, [running, action, RUN_CHANNELS.cancel]);
  }
}

/** Threads left with no pending or running run after a cancel are idle again. */
export async function settleIdleThreads(tx: SqlRunner, threadIds: string[]): Promise<void> {
  if (threadIds.length === 0) return;
  await tx.query(
    `UPDATE threads t SET status = 'idle', updated_at = now()
     WHERE t.thread_id = ANY($1::uuid[]) AND t.status = 'busy'
       AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.thread_id AND r.status IN ('pending', 'running'))`,
    [[...new Set(threadIds)]],
  );
}
