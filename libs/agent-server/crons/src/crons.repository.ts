import { randomUUID } from 'node:crypto';
import { accessFilterSql, binderOf, type AccessFilter } from '@platform/agent-server-data-access';
import { NotFoundError } from '@platform/errors';
import type { SqlRunner, SqlSession } from '@platform/prisma';
import type { Cron, CronFilter, CronQuery, NewCron, OnRunCompleted } from './cron';
import { CRON_COLUMNS, toCron, type CronRow } from './cron-row';
import { countCronsSql, searchCronsSql } from './cron-search.query';

/** Every stored field of a cron after a change (what `modify` saves). */
export interface CronState {
  schedule: string;
  timezone: string | null;
  end_time: Date | null;
  enabled: boolean;
  on_run_completed: OnRunCompleted | null;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  next_run_date: Date | null;
}

/**
 * Crons in the agent-server database. `visible` is the caller's filter from the deployment's auth (on the cron's
 * metadata): a cron it hides is not there.
 */
export interface CronRepository {
  /** The cron, or NotFoundError `Cron '<id>' not found`. */
  get(cronId: string, visible?: AccessFilter): Promise<Cron>;
  /** Stores a new cron; NotFoundError when its thread or assistant does not exist. */
  insert(cron: NewCron, nextRunDate: Date | null): Promise<Cron>;
  /** Locks the cron, saves what `change` makes of it, and returns it; NotFoundError if missing. */
  modify(cronId: string, change: (current: Cron) => CronState, visible?: AccessFilter): Promise<Cron>;
  /** NotFoundError if missing. */
  delete(cronId: string, visible?: AccessFilter): Promise<void>;
  search(query: CronQuery, visible?: AccessFilter): Promise<Cron[]>;
  count(filter: CronFilter, visible?: AccessFilter): Promise<number>;
  /**
   * Claims up to `limit` due crons (enabled, `next_run_date` passed on the database's clock), skipping rows another
   * replica holds, and in the same transaction sets each one's `next_run_date` to `advance(cron, now)`. Returns the
   * claimed crons as they were before.
   */
  claimDue(limit: number, advance: (cron: Cron, now: Date) => Date | null): Promise<Cron[]>;
}

const notFound = (cronId: string) => new NotFoundError(`Cron '${cronId}' not found`);
const json = (value: unknown) => JSON.stringify(value ?? {});
const at = (value: Date | null | undefined) => (value ? value.toISOString() : null);

// ` AND <the cron passes the caller's filter>`, or nothing without a filter.
const visibleSql = (visible: AccessFilter | undefined, params: unknown[]) => {
  const condition = accessFilterSql(visible, 'metadata', binderOf(params));
  return condition ? ` AND ${condition}` : '';
};

// A foreign key refused the row: its thread or assistant is not there.
function missingParent(err: unknown, cron: NewCron): NotFoundError | undefined {
  const { code, constraint, message } = (err ?? {}) as { code?: string; constraint?: string; message?: string };
  if (code !== '23503') return undefined;
  const which = `${constraint ?? ''} ${message ?? ''}`;
  if (which.includes('crons_thread_id_fkey')) return new NotFoundError(`Thread '${cron.thread_id}' not found`);
  return new NotFoundError(`Assistant '${cron.assistant_id}' not found`);
}

async function save(tx: SqlRunner, cronId: string, state: CronState, touch: boolean): Promise<void> {
  await tx.query(
    `UPDATE crons SET schedule = $2, timezone = $3, end_time = $4::timestamptz, enabled = $5, on_run_completed = $6,
       payload = $7::jsonb, metadata = $8::jsonb, next_run_date = $9::timestamptz${touch ? ', updated_at = now()' : ''}
     WHERE cron_id = $1::uuid`,
    [cronId, state.schedule, state.timezone, at(state.end_time), state.enabled, state.on_run_completed, json(state.payload), json(state.metadata), at(state.next_run_date)],
  );
}

const stateOf = (cron: Cron): CronState => ({
  schedule: cron.schedule,
  timezone: cron.timezone,
  end_time: cron.end_time ? new Date(cron.end_time) : null,
  enabled: cron.enabled,
  on_run_completed: cron.on_run_completed,
  payload: cron.payload,
  metadata: cron.metadata,
  next_run_date: cron.next_run_date ? new Date(cron.next_run_date) : null,
});

export function createCronRepository(sql: SqlSession): CronRepository {
  const get = async (cronId: string, visible?: AccessFilter): Promise<Cron> => {
    const params: unknown[] = [cronId];
    const [row] = await sql.query<CronRow>(`SELECT ${CRON_COLUMNS} FROM crons WHERE cron_id = $1::uuid${visibleSql(visible, params)}`, params);
    if (!row) throw notFound(cronId);
    return toCron(row);
  };

  return {
    get,

    async insert(cron, nextRunDate) {
      const cronId = randomUUID();
      try {
        const [row] = await sql.query<CronRow>(
          `INSERT INTO crons (cron_id, assistant_id, thread_id, user_id, schedule, timezone, payload, metadata, enabled, on_run_completed,
             end_time, next_run_date)
           VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11::timestamptz, $12::timestamptz)
           RETURNING ${CRON_COLUMNS}`,
          [
            cronId,
            cron.assistant_id,
            cron.thread_id,
            cron.user_id ?? null,
            cron.schedule,
            cron.timezone ?? null,
            json(cron.payload),
            json(cron.metadata),
            cron.enabled ?? true,
            cron.thread_id === null ? (cron.on_run_completed ?? 'delete') : null,
            at(cron.end_time),
            at(nextRunDate),
          ],
        );
        return toCron(row!);
      } catch (err) {
        throw missingParent(err, cron) ?? err;
      }
    },

    async modify(cronId, change, visible) {
      await sql.transaction(async (tx) => {
        const params: unknown[] = [cronId];
        const [row] = await tx.query<CronRow>(`SELECT ${CRON_COLUMNS} FROM crons WHERE cron_id = $1::uuid${visibleSql(visible, params)} FOR UPDATE`, params);
        if (!row) throw notFound(cronId);
        await save(tx, cronId, change(toCron(row)), true);
      });
      return get(cronId);
    },

    async delete(cronId, visible) {
      const params: unknown[] = [cronId];
      const rows = await sql.query(`DELETE FROM crons WHERE cron_id = $1::uuid${visibleSql(visible, params)} RETURNING cron_id`, params);
      if (rows.length === 0) throw notFound(cronId);
    },

    async search(query, visible) {
      const { sql: text, params } = searchCronsSql(query, visible);
      return (await sql.query<CronRow>(text, params)).map(toCron);
    },

    async count(filter, visible) {
      const { sql: text, params } = countCronsSql(filter, visible);
      const [row] = await sql.query<{ count: number }>(text, params);
      return Number(row?.count ?? 0);
    },

    claimDue(limit, advance) {
      return sql.transaction(async (tx) => {
        const rows = await tx.query<CronRow & { db_now: Date | string }>(
          `SELECT ${CRON_COLUMNS}, now() AS db_now FROM crons WHERE enabled AND next_run_date <= now()
           ORDER BY next_run_date LIMIT $1::int FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        const claimed: Cron[] = [];
        for (const row of rows) {
          const cron = toCron(row);
          // The scheduler's bookkeeping is no user change: `updated_at` stays.
          await save(tx, cron.cron_id, { ...stateOf(cron), next_run_date: advance(cron, new Date(row.db_now)) }, false);
          claimed.push(cron);
        }
        return claimed;
      });
    },
  };
}
