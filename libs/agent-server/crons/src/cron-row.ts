import type { Cron, OnRunCompleted } from './cron';

/** A `crons` row as the queries select it. */
export interface CronRow {
  cron_id: string;
  assistant_id: string;
  thread_id: string | null;
  user_id: string | null;
  schedule: string;
  timezone: string | null;
  payload: unknown;
  metadata: unknown;
  enabled: boolean;
  on_run_completed: string | null;
  end_time: Date | string | null;
  next_run_date: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const CRON_COLUMNS = `cron_id::text AS cron_id, assistant_id::text AS assistant_id, thread_id::text AS thread_id, user_id, schedule,
  timezone, payload, metadata, enabled, on_run_completed, end_time, next_run_date, created_at, updated_at`;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

// Both drivers (pg, PGlite) hand JSONB back parsed and timestamps as Dates.
export function toCron(row: CronRow): Cron {
  return {
    cron_id: row.cron_id,
    assistant_id: row.assistant_id,
    thread_id: row.thread_id,
    on_run_completed: row.thread_id === null ? ((row.on_run_completed ?? 'delete') as OnRunCompleted) : null,
    end_time: iso(row.end_time),
    schedule: row.schedule,
    timezone: row.timezone,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    payload: record(row.payload),
    user_id: row.user_id,
    next_run_date: iso(row.next_run_date),
    metadata: record(row.metadata),
    enabled: row.enabled,
  };
}
