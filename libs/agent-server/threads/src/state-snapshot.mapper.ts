import type { RunnableConfig } from '@langchain/core/runnables';
import type { StateSnapshot } from '@langchain/langgraph';
import { toJsonValue } from '@platform/agent-server-graphs';
import type { ThreadInterrupt } from './thread';
import type { ThreadCheckpoint, ThreadState, ThreadTask } from './thread-state';

type SnapshotTask = StateSnapshot['tasks'][number];

/** The checkpoint a config points at, or null when it names no thread. */
export function configToCheckpoint(config: RunnableConfig | undefined | null): ThreadCheckpoint | null {
  const configurable = config?.configurable;
  const threadId: unknown = configurable?.['thread_id'];
  if (threadId === undefined || threadId === null || threadId === '') return null;
  const checkpointMap: unknown = configurable?.['checkpoint_map'];
  return {
    thread_id: String(threadId),
    checkpoint_ns: typeof configurable?.['checkpoint_ns'] === 'string' ? configurable['checkpoint_ns'] : '',
    checkpoint_id: typeof configurable?.['checkpoint_id'] === 'string' && configurable['checkpoint_id'] !== '' ? configurable['checkpoint_id'] : null,
    checkpoint_map: isRecord(checkpointMap) ? (toJsonValue(checkpointMap) as Record<string, unknown>) : null,
  };
}

/** A task's error as text: errors come back from the checkpointer as Error objects or plain `{message}` records. */
function errorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message || error.name;
  if (isRecord(error) && typeof error['message'] === 'string') return error['message'];
  return JSON.stringify(toJsonValue(error));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSnapshot(state: SnapshotTask['state']): state is StateSnapshot {
  return isRecord(state) && 'values' in state && 'next' in state;
}

function toTask(task: SnapshotTask): ThreadTask {
  const nested = task.state;
  return {
    id: task.id,
    name: task.name,
    error: errorText(task.error),
    interrupts: toJsonValue(task.interrupts ?? []) as ThreadInterrupt[],
    ...(task.path ? { path: toJsonValue(task.path) as unknown[] } : {}),
    // Without `subgraphs`, a subgraph task carries the config of its checkpoint; with it, the subgraph's state.
    checkpoint: isSnapshot(nested) ? configToCheckpoint(nested.config) : configToCheckpoint(nested as RunnableConfig | undefined),
    state: isSnapshot(nested) ? stateSnapshotToThreadState(nested) : null,
    ...(task.result !== undefined ? { result: toJsonValue(task.result) } : {}),
  };
}

/**
 * A LangGraph `StateSnapshot` (from `graph.getState` / `getStateHistory`) as the API's `ThreadState`: messages and
 * other LangChain objects as JSON, configs as checkpoints, task errors as text, every task's interrupts collected.
 */
export function stateSnapshotToThreadState(snapshot: StateSnapshot): ThreadState {
  const tasks = snapshot.tasks.map(toTask);
  return {
    values: toJsonValue(snapshot.values ?? {}),
    next: [...snapshot.next],
    tasks,
    metadata: snapshot.metadata ? (toJsonValue(snapshot.metadata) as Record<string, unknown>) : null,
    created_at: snapshot.createdAt ? new Date(snapshot.createdAt).toISOString() : null,
    checkpoint: configToCheckpoint(snapshot.config),
    parent_checkpoint: configToCheckpoint(snapshot.parentConfig),
    interrupts: tasks.flatMap((task) => task.interrupts),
  };
}

/** The root namespace of a thread, at no particular checkpoint. */
export function rootCheckpoint(threadId: string): ThreadCheckpoint {
  return { thread_id: threadId, checkpoint_ns: '', checkpoint_id: null, checkpoint_map: null };
}

/** The state of a thread that has no graph (or no checkpoint) yet. */
export function emptyThreadState(threadId: string): ThreadState {
  return {
    values: {},
    next: [],
    tasks: [],
    metadata: null,
    created_at: null,
    checkpoint: rootCheckpoint(threadId),
    parent_checkpoint: null,
    interrupts: [],
  };
}

/** A thread's pending interrupts by task id, as `Thread.interrupts` holds them (tasks without any are left out). */
export function interruptsByTask(state: Pick<ThreadState, 'tasks'>): Record<string, ThreadInterrupt[]> {
  return Object.fromEntries(state.tasks.filter((task) => task.interrupts.length > 0).map((task) => [task.id, task.interrupts]));
}
