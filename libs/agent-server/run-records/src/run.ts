/** pending → running → success | error | timeout | interrupted (a run cancelled with `interrupt`). */
export type RunStatus = 'pending' | 'running' | 'success' | 'error' | 'timeout' | 'interrupted';
export const RUN_STATUSES = ['pending', 'running', 'success', 'error', 'timeout', 'interrupted'] as const satisfies readonly RunStatus[];
export const isFinished = (status: RunStatus) => status !== 'pending' && status !== 'running';

/** What a new run does to a thread that already has one pending or running (double-texting). */
export type MultitaskStrategy = 'reject' | 'interrupt' | 'rollback' | 'enqueue';
export const MULTITASK_STRATEGIES = ['reject', 'interrupt', 'rollback', 'enqueue'] as const satisfies readonly MultitaskStrategy[];

/** `interrupt` stops a run and keeps its checkpoints; `rollback` deletes the run and what it wrote. */
export type CancelAction = 'interrupt' | 'rollback';

export type StreamMode = 'values' | 'updates' | 'messages' | 'messages-tuple' | 'events' | 'debug' | 'custom' | 'tasks' | 'checkpoints';
export const STREAM_MODES = [
  'values',
  'updates',
  'messages',
  'messages-tuple',
  'events',
  'debug',
  'custom',
  'tasks',
  'checkpoints',
] as const satisfies readonly StreamMode[];

export type Durability = 'sync' | 'async' | 'exit';

/** A run's config as stored: the assistant's merged with the request's. */
export interface RunConfig {
  tags?: string[];
  recursion_limit?: number;
  configurable: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface CommandJson {
  goto?: string | { node: string; input?: unknown } | (string | { node: string; input?: unknown })[] | null;
  update?: Record<string, unknown> | [string, unknown][] | null;
  resume?: unknown;
}

/** Everything the executor needs, stored with the run so any replica can execute it. */
export interface RunKwargs {
  input?: unknown;
  command?: CommandJson | null;
  config: RunConfig;
  context: Record<string, unknown>;
  stream_mode: StreamMode[];
  interrupt_before?: '*' | string[];
  interrupt_after?: '*' | string[];
  webhook?: string;
  feedback_keys?: string[];
  /** A stateless run whose thread is deleted when it ends (`on_completion: delete`). */
  temporary: boolean;
  subgraphs: boolean;
  resumable: boolean;
  on_disconnect: 'cancel' | 'continue';
  durability?: Durability;
}

/** A run's kwargs as the API shows them: what the request gave (no null input or command), no server bookkeeping. */
export type PublicRunKwargs = Omit<RunKwargs, 'on_disconnect'>;

/** A run as the Agent Server API shows it (`@langchain/langgraph-sdk`'s `Run`). */
export interface Run {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: Record<string, unknown>;
  kwargs: PublicRunKwargs;
  multitask_strategy: MultitaskStrategy;
}

function publicKwargs(kwargs: RunKwargs): PublicRunKwargs {
  const { on_disconnect: _onDisconnect, input, command, ...rest } = kwargs;
  return { ...(input != null ? { input } : {}), ...(command != null ? { command } : {}), ...rest };
}

/** A run row with the queue's bookkeeping. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: Date;
  updated_at: Date;
  status: RunStatus;
  metadata: Record<string, unknown>;
  kwargs: RunKwargs;
  multitask_strategy: MultitaskStrategy;
  attempt: number;
  lease_owner: string | null;
  temporary_thread: boolean;
  cancel_action: CancelAction | null;
  started_at: Date | null;
  ended_at: Date | null;
}

export function toRun(record: RunRecord): Run {
  return {
    run_id: record.run_id,
    thread_id: record.thread_id,
    assistant_id: record.assistant_id,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    status: record.status,
    metadata: record.metadata,
    kwargs: publicKwargs(record.kwargs),
    multitask_strategy: record.multitask_strategy,
  };
}

/** One stream event of a run: numbered from 0 over the whole run; `data` is JSON text, as streamed. */
export interface StoredEvent {
  seq: number;
  event: string;
  data: string;
}

/** How a run ended, as join and wait report it. */
export interface RunEnd {
  status: RunStatus;
  /** JSON text: the final values, or `{"__error__": {...}}`; null when the run left none. */
  output: string | null;
}
