import type { CancelAction, MultitaskStrategy, RunKwargs, RunRecord, RunStatus } from './run';

const COLUMNS = ['created_at', 'updated_at', 'status', 'metadata', 'kwargs', 'multitask_strategy', 'attempt', 'lease_owner'];
const MORE_COLUMNS = ['temporary_thread', 'cancel_action', 'started_at', 'ended_at'];

/** The columns every run query selects, in the shape `toRunRecord` reads; `table` qualifies them in joins. */
export function runColumns(table?: string): string {
  const q = table ? `${table}.` : '';
  const ids = ['run_id', 'thread_id', 'assistant_id'].map((c) => `${q}${c}::text AS ${c}`);
  return [...ids, ...[...COLUMNS, ...MORE_COLUMNS].map((c) => `${q}${c}`)].join(', ');
}

export const RUN_COLUMNS = runColumns();

export interface RunRow {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: Date | string;
  updated_at: Date | string;
  status: string;
  metadata: unknown;
  kwargs: unknown;
  multitask_strategy: string;
  attempt: number;
  lease_owner: string | null;
  temporary_thread: boolean;
  cancel_action: string | null;
  started_at: Date | string | null;
  ended_at: Date | string | null;
}

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

export function toRunRecord(row: RunRow): RunRecord {
  return {
    run_id: row.run_id,
    thread_id: row.thread_id,
    assistant_id: row.assistant_id,
    created_at: date(row.created_at),
    updated_at: date(row.updated_at),
    status: row.status as RunStatus,
    metadata: json<Record<string, unknown>>(row.metadata) ?? {},
    kwargs: json<RunKwargs>(row.kwargs),
    multitask_strategy: row.multitask_strategy as MultitaskStrategy,
    attempt: Number(row.attempt),
    lease_owner: row.lease_owner,
    temporary_thread: row.temporary_thread,
    cancel_action: row.cancel_action as CancelAction | null,
    started_at: row.started_at === null ? null : date(row.started_at),
    ended_at: row.ended_at === null ? null : date(row.ended_at),
  };
}

/** Milliseconds as a SQL interval expression on parameter `$n`. */
export const msInterval = (n: number) => `($${n}::float8 * interval '1 millisecond')`;
