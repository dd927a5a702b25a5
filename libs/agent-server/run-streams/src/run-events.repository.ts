import type { SqlRunner, SqlSession } from '@platform/prisma';
import type { StoredEvent } from '@platform/agent-server-run-records';

/** Arrays for one `INSERT ... SELECT FROM unnest(...)` of many events. */
export function eventColumns(events: StoredEvent[]): [number[], string[], string[]] {
  return [events.map((e) => e.seq), events.map((e) => e.event), events.map((e) => e.data)];
}

export const INSERT_EVENTS_SQL = (runParam: number, firstArray: number) =>
  `INSERT INTO run_events (run_id, seq, event, data)
   SELECT $${runParam}::uuid, x.seq, x.event, x.data
   FROM unnest($${firstArray}::int[], $${firstArray + 1}::text[], $${firstArray + 2}::text[]) AS x(seq, event, data)`;

/** The event log of runs: every event numbered from 0, kept for resumable streams and late joiners. */
export interface RunEventRepository {
  /** Inserts a batch in one statement (and, when `notify` is given, NOTIFY in the same transaction). */
  insert(runId: string, events: StoredEvent[], notify?: { channel: string; payload: string }): Promise<void>;
  /** Events with seq > `afterSeq`, in order. */
  after(runId: string, afterSeq: number, limit?: number): Promise<StoredEvent[]>;
  /** The seq the next event of the run gets (events of earlier attempts count). */
  nextSeq(runId: string): Promise<number>;
  /** Deletes the events of runs that ended more than `retentionMs` ago, and such stateless runs; returns events deleted. */
  sweep(retentionMs: number, batch?: number): Promise<number>;
}

export function createRunEventRepository(sql: SqlSession): RunEventRepository {
  return {
    async insert(runId, events, notify) {
      if (events.length === 0) return;
      const params: unknown[] = [runId, ...eventColumns(events)];
      if (!notify) {
        await sql.query(INSERT_EVENTS_SQL(1, 2), params);
        return;
      }
      await sql.query(
        `WITH ins AS (${INSERT_EVENTS_SQL(1, 2)} RETURNING 1), n AS (SELECT pg_notify($5, $6))
         SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM n) AS notified`,
        [...params, notify.channel, notify.payload],
      );
    },

    async after(runId, afterSeq, limit = 1000) {
      const rows = await sql.query<{ seq: number; event: string; data: string }>(
        `SELECT seq, event, data FROM run_events WHERE run_id = $1::uuid AND seq > $2 ORDER BY seq LIMIT $3`,
        [runId, afterSeq, limit],
      );
      return rows.map((row) => ({ seq: Number(row.seq), event: row.event, data: row.data }));
    },

    async nextSeq(runId) {
      const [row] = await sql.query<{ next: number }>(`SELECT COALESCE(max(seq) + 1, 0)::int AS next FROM run_events WHERE run_id = $1::uuid`, [
        runId,
      ]);
      return Number(row?.next ?? 0);
    },

    async sweep(retentionMs, batch = 5000) {
      // Events of ended runs past retention, and of runs that no longer exist; then stateless runs past it.
      const [deleted] = await sql.query<{ n: number }>(
        `WITH old AS (
           SELECT e.run_id, e.seq FROM run_events e LEFT JOIN runs r ON r.run_id = e.run_id
           WHERE e.created_at < now() - $1::float8 * interval '1 millisecond'
             AND (r.run_id IS NULL OR r.status NOT IN ('pending', 'running'))
           LIMIT $2)
         , gone AS (DELETE FROM run_events e USING old WHERE e.run_id = old.run_id AND e.seq = old.seq RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [retentionMs, batch],
      );
      await sql.query(
        `DELETE FROM runs WHERE run_id IN (
           SELECT run_id FROM runs WHERE temporary_thread AND ended_at < now() - $1::float8 * interval '1 millisecond' LIMIT $2)`,
        [retentionMs, batch],
      );
      return Number(deleted?.n ?? 0);
    },
  };
}

/** Inserts events on a transaction the caller holds. */
export async function insertEventsIn(tx: SqlRunner, runId: string, events: StoredEvent[]): Promise<void> {
  if (events.length > 0) await tx.query(INSERT_EVENTS_SQL(1, 2), [runId, ...eventColumns(events)]);
}
