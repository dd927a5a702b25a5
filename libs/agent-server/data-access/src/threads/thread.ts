import type { SortOrder } from '../sort-order';

/** What a thread is doing: `busy` while a run executes, then idle, interrupted (waiting for input) or error. */
export type ThreadStatus = 'idle' | 'busy' | 'interrupted' | 'error';
export const THREAD_STATUSES = ['idle', 'busy', 'interrupted', 'error'] as const satisfies readonly ThreadStatus[];

/** An interrupt raised by a task, as the API shows it. */
export interface ThreadInterrupt {
  id?: string;
  value?: unknown;
  [key: string]: unknown;
}

/** A thread as the Agent Server API shows it (`@langchain/langgraph-sdk`'s `Thread`). */
export interface Thread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  /** When the thread's state last changed: its newest root checkpoint, or its creation. */
  state_updated_at: string;
  metadata: Record<string, unknown>;
  status: ThreadStatus;
  config: Record<string, unknown>;
  /** The latest state's values, cached by the run lifecycle (`{}` before any). */
  values: unknown;
  /** Pending interrupts of the latest state by task id. */
  interrupts: Record<string, ThreadInterrupt[]>;
  /** Only with `extract` in a search. */
  extracted?: Record<string, unknown>;
}

export type ThreadSortBy = 'thread_id' | 'status' | 'created_at' | 'updated_at' | 'state_updated_at';
export const THREAD_SORT_FIELDS = ['thread_id', 'status', 'created_at', 'updated_at', 'state_updated_at'] as const satisfies readonly ThreadSortBy[];

/** Filters shared by search and count; every one is optional. */
export interface ThreadFilter {
  /** JSON containment on the thread's metadata. */
  metadata?: Record<string, unknown>;
  /** JSON containment on the thread's cached state values. */
  values?: Record<string, unknown>;
  status?: ThreadStatus;
  ids?: string[];
}

export interface ThreadQuery extends ThreadFilter {
  limit: number;
  offset: number;
  sortBy?: ThreadSortBy;
  sortOrder?: SortOrder;
}

export type OnConflict = 'raise' | 'do_nothing';

export interface NewThread {
  thread_id?: string;
  metadata?: Record<string, unknown>;
  /** `raise` (default): 409 when the id is taken; `do_nothing`: return the existing thread. */
  if_exists?: OnConflict;
}
