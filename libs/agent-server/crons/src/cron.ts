/** A cron as the API shows it. Times are ISO 8601 UTC. */
export interface Cron {
  cron_id: string;
  assistant_id: string;
  /** The thread every firing runs on; null for a stateless cron (a new thread per firing). */
  thread_id: string | null;
  /** Stateless crons: what happens to a firing's thread once its run ended; null for thread crons. */
  on_run_completed: OnRunCompleted | null;
  end_time: string | null;
  schedule: string;
  /** IANA time zone the schedule is read in; null: UTC. */
  timezone: string | null;
  created_at: string;
  updated_at: string;
  /** The run request each firing creates (assistant_id, input, config, context, metadata, ...). */
  payload: Record<string, unknown>;
  user_id: string | null;
  /** When it fires next; null once nothing is left before `end_time`. */
  next_run_date: string | null;
  metadata: Record<string, unknown>;
  enabled: boolean;
}

export const ON_RUN_COMPLETED = ['delete', 'keep'] as const;
export type OnRunCompleted = (typeof ON_RUN_COMPLETED)[number];

export const CRON_SORT_FIELDS = ['cron_id', 'assistant_id', 'thread_id', 'created_at', 'updated_at', 'next_run_date'] as const;
export type CronSortBy = (typeof CRON_SORT_FIELDS)[number];

// `now` is the server's clock when the search ran (the reference lists it among the selectable fields).
export const CRON_SELECT_FIELDS = [
  'cron_id',
  'assistant_id',
  'thread_id',
  'end_time',
  'schedule',
  'created_at',
  'updated_at',
  'user_id',
  'payload',
  'next_run_date',
  'metadata',
  'now',
  'timezone',
  'enabled',
  'on_run_completed',
] as const;
export type CronSelectField = (typeof CRON_SELECT_FIELDS)[number];

/** What a new cron is made of; the assistant is already resolved to its id. */
export interface NewCron {
  assistant_id: string;
  thread_id: string | null;
  schedule: string;
  timezone?: string | null;
  end_time?: Date | null;
  enabled?: boolean;
  on_run_completed?: OnRunCompleted | null;
  payload: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  user_id?: string | null;
}

/** A PATCH: fields given replace the cron's; `payload` keys given replace the payload's; `metadata` merges. */
export interface CronChanges {
  schedule?: string;
  timezone?: string | null;
  end_time?: Date | null;
  enabled?: boolean;
  on_run_completed?: OnRunCompleted;
  payload?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface CronFilter {
  assistant_id?: string;
  thread_id?: string;
  enabled?: boolean;
  metadata?: Record<string, unknown>;
}

export interface CronQuery extends CronFilter {
  limit: number;
  offset: number;
  sortBy?: CronSortBy;
  sortOrder?: 'asc' | 'desc';
}
