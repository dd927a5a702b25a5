import { storableJsonText, type SqlSession } from '@platform/prisma';
import {
  type CancelAction,
  type RunRecord,
  type RunStatus,
  type StoredEvent,
  RUN_CHANNELS,
  msInterval,
  runColumns,
  toRunRecord,
  type RunRow,
} from '@platform/agent-server-run-records';
import { eventColumns, INSERT_EVENTS_SQL, insertEventsIn } from '@platform/agent-server-run-streams';

/** How a run ended on the replica that executed it. */
export interface RunFinish {
  runId: string;
  owner: string;
  status: Exclude<RunStatus, 'pending' | 'running'>;
  /** JSON text join and wait return. */
  output: string | null;
  /** Events not yet written, written in the same statement. */
  events: StoredEvent[];
  /** The thread's status when no other run waits on it. */
  threadStatus: 'idle' | 'interrupted' | 'error';
  /** The thread's cached state, when the run knows it (JSON text of values and of interrupts by task). */
  threadState?: { values: string; interrupts: string };
  /** Delete the thread (stateless run, `on_completion: delete`). */
  deleteThread: boolean;
}

/** Rows of the checkpointer's tables one run wrote, for a rollback. */
export interface CheckpointKeys {
  checkpoints: { ns: string; id: string }[];
  writes: { ns: string; checkpointId: string; taskId: string; idx: number }[];
  blobs: { ns: string; channel: string; version: string }[];
}

export interface ExpiredRun {
  run: RunRecord;
  /** What the sweeper did: queued again, failed after too many attempts, or handled a cancel that was pending. */
  outcome: 'requeued' | 'failed' | 'interrupted' | 'rollback';
}

/** The queue's side of the runs table: claiming with leases, heartbeats, ending, handing back, sweeping. */
export interface RunQueueRepository {
  /**
   * Claims up to `limit` pending runs that are due and first in line on their thread, none of whose thread runs
   * anything, with `FOR UPDATE SKIP LOCKED` on run and thread rows, so concurrent claimers never take the same run
   * or two runs of one thread. Runs named in `prefer` (those the claiming replica created, whose callers wait on it)
   * count as `OWN_RUNS_HEAD_START_MS` older: a replica executes its own queued runs first, so its waiters are
   * answered in memory instead of through a NOTIFY and a read, while runs nobody else takes are still shared.
   * However long the queue, it reads the runs it takes and those it passes over on the way (waiting behind their
   * thread, or locked), plus one lookup per id in `prefer`.
   */
  claim(owner: string, limit: number, leaseMs: number, prefer?: string[]): Promise<RunRecord[]>;
  /**
   * Extends the leases of the given runs the owner still holds; returns those with any cancel requested. Only runs
   * the replica really executes are named, so a run whose executor died with the replica alive still expires.
   */
  heartbeat(owner: string, leaseMs: number, runIds: string[]): Promise<{ runId: string; cancelAction: CancelAction | null }[]>;
  /**
   * Ends a run (if the owner still holds it) and updates or deletes its thread; NOTIFY `d` (and the queue when runs
   * of its thread wait). With `claim`, the same statement claims up to that many other runs for the owner (a busy
   * replica takes its next runs without another round trip).
   */
  finish(finish: RunFinish, claim?: { limit: number; leaseMs: number; prefer?: string[] }): Promise<{ ended: boolean; waiting: number; exists: boolean; claimed: RunRecord[] }>;
  /** Hands a running run back to the queue (shutdown), keeping its attempt count and events. */
  release(runId: string, owner: string, events: StoredEvent[]): Promise<void>;
  /** Deletes a rolled-back run with its events and the checkpoint rows it wrote; NOTIFY `d`. */
  rollback(runId: string, threadId: string, keys: CheckpointKeys | 'by-metadata'): Promise<void>;
  /** Sets a thread's status and cached state after a rollback or a sweep. */
  settleThread(threadId: string, status: 'idle' | 'interrupted' | 'error', state?: { values: string; interrupts: string }): Promise<void>;
  /** Handles runs whose lease lapsed (their replica died): requeue, fail after `maxAttempts`, or apply a pending cancel. */
  sweepExpired(maxAttempts: number, limit?: number): Promise<ExpiredRun[]>;
  /** The run id, if a root checkpoint of this run is the thread's latest (a retry then resumes from it). */
  latestCheckpointRunId(threadId: string): Promise<string | null>;
  /**
   * Deletes the checkpoint rows (checkpoints, blobs, pending writes) under a thread id that no longer names a
   * thread: what a run wrote after its thread was deleted under it. Returns the number of checkpoints deleted.
   */
  discardOrphanCheckpoints(threadId: string): Promise<number>;
  /**
   * The deployment's demand, shared by all its replicas: runs waiting and due (`queued`) and runs being executed
   * (`running`). Exported as metrics, it is what an autoscaler sizes the replicas by.
   */
  depth(): Promise<{ queued: number; running: number }>;
}

/**
 * How much earlier than its creation a replica's own queued run counts when that replica claims: the bound on how
 * far a run may be overtaken by runs another replica created later. Per thread, runs are taken in order regardless.
 */
export const OWN_RUNS_HEAD_START_MS = 1_000;

/**
 * A LIMIT that never stops a walk but whose value the planner does not know (a sub-SELECT): it then plans the walk
 * for its first rows (an index scan in order, stopped early) instead of for all of them (read everything, then sort).
 */
const UNKNOWN_LIMIT = '(SELECT 9223372036854775807)';

/**
 * CTEs `c`, `busy` and `claimed` (the claimed runs' rows): pending runs that are due and first in line on their
 * thread while nothing runs on it (those in `prefer` first, see `claim`), locked with their thread rows SKIP LOCKED,
 * made running under `owner`'s lease.
 *
 * It reads about as many runs as it claims, not the whole queue. Candidates come in claim order from two ordered
 * streams merged (a Merge Append): the runs in `prefer`, looked up by id (by id only: a filter on status would let
 * the planner read the whole queue's entries in the status index to combine with them) and keyed `created_at` less
 * the head start, and the other pending runs, walked in the partial index `runs_pending_order`. A LATERAL subquery
 * checks and locks each candidate as it comes, so only the runs taken are locked, and the LIMIT stops the walk.
 * What keeps the planner to that shape, whatever its statistics say of the queue (often read while it was empty):
 * - the merged streams sit in a subquery sorted by the merge key, so there is no unordered way to read them (a Sort
 *   above the LATERAL would lock every candidate);
 * - Postgres plans a UNION ALL branch with a WHERE clause on its own, for all its rows, so each branch sorts itself,
 *   and the walk has a LIMIT Postgres cannot know when planning ({@link UNKNOWN_LIMIT}): planned for all its rows,
 *   it would read and sort every pending run whenever they are much of the table;
 * - the LATERAL re-reads the candidate's row by its ctid, which needs no index (the planner otherwise scanned a
 *   pending-runs index it thought tiny for each id); its status check rejects a run claimed or cancelled since;
 * - each per-thread check is a subplan of its own (OFFSET 0), a lookup by thread, never a scan of every running or
 *   pending run joined to the candidate;
 * - with no own runs (`cardinality = 0`) the by-id branch is not run at all (an empty ANY made the planner scan an
 *   index of pending runs for it).
 */
function claimCtes(ownerParam: number, leaseParam: number, limitParam: number, preferParam: number): string {
  const prefer = `$${preferParam}::uuid[]`;
  return `c AS (
      SELECT l.run_id, l.thread_id
      FROM (SELECT u.row, u.k, u.run_id FROM (
              (SELECT pref.ctid AS row, pref.created_at - interval '${OWN_RUNS_HEAD_START_MS} milliseconds' AS k, pref.run_id
               FROM runs pref WHERE cardinality(${prefer}) > 0 AND pref.run_id = ANY(${prefer}) ORDER BY k, pref.run_id)
              UNION ALL
              (SELECT other.ctid, other.created_at, other.run_id FROM runs other
               WHERE other.status = 'pending' AND other.available_at <= now() AND other.run_id <> ALL(${prefer})
               ORDER BY other.created_at, other.run_id LIMIT ${UNKNOWN_LIMIT})) u
            ORDER BY u.k, u.run_id) o
      CROSS JOIN LATERAL (
        SELECT r.run_id, r.thread_id FROM runs r JOIN threads t ON t.thread_id = r.thread_id
        WHERE r.ctid = o.row AND r.status = 'pending' AND r.available_at <= now()
          AND NOT EXISTS (SELECT 1 FROM runs x WHERE x.thread_id = r.thread_id AND x.status = 'running' OFFSET 0)
          AND NOT EXISTS (SELECT 1 FROM runs x WHERE x.thread_id = r.thread_id AND x.status = 'pending'
                            AND (x.created_at, x.run_id) < (r.created_at, r.run_id) OFFSET 0)
        FOR UPDATE OF r, t SKIP LOCKED) l
      ORDER BY o.k, o.run_id
      LIMIT $${limitParam}),
    busy AS (UPDATE threads SET status = 'busy', updated_at = now()
             WHERE thread_id IN (SELECT thread_id FROM c) AND status <> 'busy'),
    claimed AS (UPDATE runs SET status = 'running', attempt = runs.attempt + 1, lease_owner = $${ownerParam},
        lease_expires_at = now() + ${msInterval(leaseParam)}, started_at = COALESCE(runs.started_at, now()), updated_at = now()
      FROM c WHERE runs.run_id = c.run_id
      RETURNING ${runColumns('runs')})`;
}

// The hot statements' texts, built once: a text built per call costs its building, and hashing it again to find its
// prepared statement (StatementNames), on every run.
const CLAIM_SQL = `WITH ${claimCtes(1, 2, 3, 4)} SELECT * FROM claimed`;

/** Ends a run: writes its last events, its status and output, its thread's; NOTIFYs; claims `$15` queued runs. */
const FINISH_SQL = `WITH ev AS (${INSERT_EVENTS_SQL(1, 2)}),
         r AS (UPDATE runs SET status = $5, output = $6, ended_at = now(), updated_at = now(), lease_owner = NULL,
                 lease_expires_at = NULL
               WHERE run_id = $1::uuid AND lease_owner = $7 AND status = 'running' RETURNING thread_id),
         waiting AS (SELECT count(*)::int AS n FROM runs WHERE thread_id = (SELECT thread_id FROM r) AND status = 'pending'),
         kept AS (UPDATE threads SET status = CASE WHEN (SELECT n FROM waiting) > 0 THEN 'busy' ELSE $8 END,
                    values = CASE WHEN $9::boolean THEN $10::jsonb ELSE values END,
                    interrupts = CASE WHEN $9::boolean THEN $11::jsonb ELSE interrupts END,
                    updated_at = now()
                  WHERE thread_id = (SELECT thread_id FROM r) AND NOT $12::boolean),
         gone AS (DELETE FROM threads WHERE thread_id = (SELECT thread_id FROM r) AND $12::boolean),
         -- Unconditional: a run deleted meanwhile also ends its followers' streams (a spurious one makes them re-check).
         n AS (SELECT pg_notify($13, 'd ' || $1)),
         q AS (SELECT pg_notify($14, '') FROM waiting WHERE n > 0),
         ${claimCtes(7, 16, 15, 17)}
         SELECT (SELECT count(*) FROM r)::int AS ended, COALESCE((SELECT n FROM waiting), 0)::int AS waiting,
                EXISTS (SELECT 1 FROM runs WHERE run_id = $1::uuid) AS exists,
                (SELECT count(*) FROM n)::int + (SELECT count(*) FROM q)::int AS notified,
                (SELECT json_agg(claimed) FROM claimed) AS claimed`;

export function createRunQueueRepository(sql: SqlSession): RunQueueRepository {
  const settleThread: RunQueueRepository['settleThread'] = async (threadId, status, state) => {
    await sql.query(
      `UPDATE threads SET
         status = CASE WHEN EXISTS (SELECT 1 FROM runs WHERE thread_id = $1::uuid AND status IN ('pending', 'running')) THEN 'busy' ELSE $2 END,
         values = CASE WHEN $3::boolean THEN $4::jsonb ELSE values END,
         interrupts = CASE WHEN $3::boolean THEN $5::jsonb ELSE interrupts END,
         updated_at = now()
       WHERE thread_id = $1::uuid`,
      [threadId, status, Boolean(state), state ? storableJsonText(state.values) : null, state ? storableJsonText(state.interrupts) : '{}'],
    );
  };

  return {
    async claim(owner, limit, leaseMs, prefer = []) {
      if (limit <= 0) return [];
      const rows = await sql.query<RunRow>(CLAIM_SQL, [owner, leaseMs, limit, prefer]);
      return rows.map(toRunRecord).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    },

    async heartbeat(owner, leaseMs, runIds) {
      if (runIds.length === 0) return [];
      const rows = await sql.query<{ run_id: string; cancel_action: CancelAction | null }>(
        `UPDATE runs SET lease_expires_at = now() + ${msInterval(2)}
         WHERE run_id = ANY($3::uuid[]) AND lease_owner = $1 AND status = 'running' RETURNING run_id::text AS run_id, cancel_action`,
        [owner, leaseMs, runIds],
      );
      return rows.map((row) => ({ runId: row.run_id, cancelAction: row.cancel_action }));
    },

    async finish(f, claim) {
      const [row] = await sql.query<{ ended: number; waiting: number; exists: boolean; claimed: RunRow[] | string | null }>(
        FINISH_SQL,
        [
          f.runId,
          ...eventColumns(f.events),
          f.status,
          f.output,
          f.owner,
          f.threadStatus,
          Boolean(f.threadState),
          f.threadState ? storableJsonText(f.threadState.values) : null,
          f.threadState ? storableJsonText(f.threadState.interrupts) : '{}',
          f.deleteThread,
          RUN_CHANNELS.events,
          RUN_CHANNELS.queue,
          claim?.limit ?? 0,
          claim?.leaseMs ?? 0,
          claim?.prefer ?? [],
        ],
      );
      const claimedRows = typeof row?.claimed === 'string' ? (JSON.parse(row.claimed) as RunRow[]) : (row?.claimed ?? []);
      return {
        ended: Number(row?.ended ?? 0) > 0,
        waiting: Number(row?.waiting ?? 0),
        exists: Boolean(row?.exists),
        claimed: claimedRows.map(toRunRecord).sort((a, b) => a.created_at.getTime() - b.created_at.getTime()),
      };
    },

    async release(runId, owner, events) {
      await sql.transaction(async (tx) => {
        await insertEventsIn(tx, runId, events);
        await tx.query(
          `UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
           WHERE run_id = $1::uuid AND lease_owner = $2 AND status = 'running'`,
          [runId, owner],
        );
        await tx.query(`SELECT pg_notify($1, '')`, [RUN_CHANNELS.queue]);
      });
    },

    async rollback(runId, threadId, keys) {
      await sql.transaction(async (tx) => {
        await tx.query(`DELETE FROM run_events WHERE run_id = $1::uuid`, [runId]);
        await tx.query(`DELETE FROM runs WHERE run_id = $1::uuid`, [runId]);
        if (keys === 'by-metadata') {
          // The replica that knew exactly what the run wrote is gone: its checkpoints carry its run id.
          await tx.query(
            `WITH c AS (DELETE FROM checkpoints WHERE thread_id = $1 AND metadata @> jsonb_build_object('run_id', $2::text)
                        RETURNING checkpoint_ns, checkpoint_id)
             DELETE FROM checkpoint_writes w USING c
             WHERE w.thread_id = $1 AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id`,
            [threadId, runId],
          );
        } else {
          await tx.query(
            `DELETE FROM checkpoint_writes w USING unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS k(ns, cid, tid, idx)
             WHERE w.thread_id = $1 AND w.checkpoint_ns = k.ns AND w.checkpoint_id = k.cid AND w.task_id = k.tid AND w.idx = k.idx`,
            [threadId, keys.writes.map((w) => w.ns), keys.writes.map((w) => w.checkpointId), keys.writes.map((w) => w.taskId), keys.writes.map((w) => w.idx)],
          );
          await tx.query(
            `DELETE FROM checkpoint_blobs b USING unnest($2::text[], $3::text[], $4::text[]) AS k(ns, channel, version)
             WHERE b.thread_id = $1 AND b.checkpoint_ns = k.ns AND b.channel = k.channel AND b.version = k.version`,
            [threadId, keys.blobs.map((b) => b.ns), keys.blobs.map((b) => b.channel), keys.blobs.map((b) => b.version)],
          );
          await tx.query(
            `WITH c AS (DELETE FROM checkpoints c USING unnest($2::text[], $3::text[]) AS k(ns, id)
                        WHERE c.thread_id = $1 AND c.checkpoint_ns = k.ns AND c.checkpoint_id = k.id
                        RETURNING c.checkpoint_ns, c.checkpoint_id)
             DELETE FROM checkpoint_writes w USING c
             WHERE w.thread_id = $1 AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id`,
            [threadId, keys.checkpoints.map((c) => c.ns), keys.checkpoints.map((c) => c.id)],
          );
        }
        await tx.query(`SELECT pg_notify($1, 'd ' || $2)`, [RUN_CHANNELS.events, runId]);
        await tx.query(`SELECT pg_notify($1, '')`, [RUN_CHANNELS.queue]);
      });
    },

    settleThread,

    async sweepExpired(maxAttempts, limit = 50) {
      return sql.transaction(async (tx) => {
        const rows = await tx.query<RunRow>(
          `SELECT ${runColumns()} FROM runs WHERE status = 'running' AND lease_expires_at < now()
           ORDER BY lease_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        const expired: ExpiredRun[] = [];
        for (const run of rows.map(toRunRecord)) {
          const outcome: ExpiredRun['outcome'] =
            run.cancel_action === 'rollback'
              ? 'rollback'
              : run.cancel_action === 'interrupt'
                ? 'interrupted'
                : run.attempt >= maxAttempts
                  ? 'failed'
                  : 'requeued';
          if (outcome === 'requeued') {
            await tx.query(
              `UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, updated_at = now() WHERE run_id = $1::uuid`,
              [run.run_id],
            );
          } else if (outcome !== 'rollback') {
            // Ended here; the run's followers get a closing event from the caller (it knows the next seq).
            await tx.query(
              `UPDATE runs SET status = $2, output = $3, lease_owner = NULL, lease_expires_at = NULL, ended_at = now(), updated_at = now()
               WHERE run_id = $1::uuid`,
              [run.run_id, outcome === 'failed' ? 'error' : 'interrupted', outcome === 'failed' ? attemptsExhausted(run, maxAttempts) : null],
            );
            if (run.temporary_thread) await tx.query(`DELETE FROM threads WHERE thread_id = $1::uuid`, [run.thread_id]);
          }
          expired.push({ run, outcome });
        }
        if (expired.some((e) => e.outcome === 'requeued')) await tx.query(`SELECT pg_notify($1, '')`, [RUN_CHANNELS.queue]);
        return expired;
      });
    },

    async latestCheckpointRunId(threadId) {
      const [row] = await sql.query<{ run_id: string | null }>(
        `SELECT metadata->>'run_id' AS run_id FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = ''
         ORDER BY checkpoint_id COLLATE "C" DESC LIMIT 1`,
        [threadId],
      );
      return row?.run_id ?? null;
    },

    async depth() {
      // Both counts read the (status, available_at) index.
      const [row] = await sql.query<{ queued: number; running: number }>(
        `SELECT count(*) FILTER (WHERE status = 'pending' AND available_at <= now())::int AS queued,
                count(*) FILTER (WHERE status = 'running')::int AS running
           FROM runs WHERE status IN ('pending', 'running')`,
      );
      return row;
    },
    async discardOrphanCheckpoints(threadId) {
      const [row] = await sql.query<{ n: number }>(
        `WITH orphan AS (SELECT $1::text AS id WHERE NOT EXISTS (SELECT 1 FROM threads WHERE thread_id = $1::uuid)),
           w AS (DELETE FROM checkpoint_writes WHERE thread_id IN (SELECT id FROM orphan)),
           b AS (DELETE FROM checkpoint_blobs WHERE thread_id IN (SELECT id FROM orphan)),
           c AS (DELETE FROM checkpoints WHERE thread_id IN (SELECT id FROM orphan) RETURNING 1)
         SELECT count(*)::int AS n FROM c`,
        [threadId],
      );
      return row?.n ?? 0;
    },
  };
}

/** The join output of a run that failed because its replicas kept dying. */
export function attemptsExhausted(run: Pick<RunRecord, 'run_id' | 'attempt'>, maxAttempts: number): string {
  return JSON.stringify({
    __error__: {
      error: 'RunAttemptsExhausted',
      message: `Run ${run.run_id} was started ${run.attempt} times (limit ${maxAttempts}) and its worker was lost each time`,
    },
  });
}

/** Runs waiting and due, and runs executing, in a deployment's database (what every replica shares). */
export function readRunQueueDepth(sql: SqlSession): Promise<{ queued: number; running: number }> {
  return createRunQueueRepository(sql).depth();
}
