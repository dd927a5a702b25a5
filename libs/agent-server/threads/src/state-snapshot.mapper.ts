import type { RunnableConfig } from '@langchain/core/runnables';
import type { StateSnapshot } from '@langchain/langgraph';
import type { ThreadInterrupt } from '@platform/agent-server-data-access';
import { toJsonValue } from '@platform/agent-server-graphs';
import type { ThreadCheckpoint, ThreadState, ThreadTask } from './thread-state';

type SnapshotTask = StateSnapshot['tasks'][number];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const configurableOf = (config: unknown): Record<string, unknown> | undefined =>
  isRecord(config) && isRecord(config['configurable']) ? config['configurable'] : undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function checkpointOf(configurable: Record<string, unknown>, checkpointId: string | null): ThreadCheckpoint {
  const map = configurable['checkpoint_map'];
  return {
    thread_id: String(configurable['thread_id']),
    checkpoint_ns: text(configurable['checkpoint_ns']) || '',
    checkpoint_id: checkpointId,
    checkpoint_map: isRecord(map) ? (toJsonValue(map) as Record<string, unknown>) : null,
  };
}

/**
 * The checkpoint a config points at: null unless it names a thread and a checkpoint (LangGraph's API server does
 * the same, so a state without a checkpoint yet has `checkpoint: null`).
 */
export function configToCheckpoint(config: RunnableConfig | undefined | null): ThreadCheckpoint | null {
  const configurable = configurableOf(config);
  const checkpointId = text(configurable?.['checkpoint_id']);
  if (!configurable || !text(configurable['thread_id']) || checkpointId === undefined) return null;
  return checkpointOf(configurable, checkpointId);
}

/** The checkpoint of a task's config (a subgraph's namespace, its checkpoint id when known), or null without a thread. */
export function taskConfigToCheckpoint(config: unknown): ThreadCheckpoint | null {
  const configurable = configurableOf(config);
  if (!configurable || !text(configurable['thread_id'])) return null;
  return checkpointOf(configurable, text(configurable['checkpoint_id']) || null);
}

/** A task's error as text: errors come back from the checkpointer as Error objects or plain `{message}` records. */
function errorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error['message'] === 'string') return error['message'];
  return JSON.stringify(toJsonValue(error));
}

function isSnapshot(state: SnapshotTask['state']): state is StateSnapshot {
  return isRecord(state) && 'values' in state && 'next' in state;
}

// As LangGraph's API servers show a task: a subgraph task read without `subgraphs` carries its config's
// `configurable` as `checkpoint` (the subgraph's namespace), with `subgraphs` the subgraph's state instead.
function toTask(task: SnapshotTask): ThreadTask {
  const nested = task.state;
  const configurable = isSnapshot(nested) ? undefined : configurableOf(nested);
  return {
    id: task.id,
    name: task.name,
    path: task.path === undefined ? undefined : (toJsonValue(task.path) as unknown[]),
    error: errorText(task.error),
    interrupts: toJsonValue(task.interrupts ?? []) as ThreadInterrupt[],
    checkpoint: configurable ? (toJsonValue(configurable) as ThreadTask['checkpoint']) : null,
    state: isSnapshot(nested) ? subgraphState(nested) : null,
    result: task.result === undefined ? null : toJsonValue(task.result),
  };
}

/**
 * A LangGraph `StateSnapshot` (from `graph.getState` / `getStateHistory`) as the API's `ThreadState`: messages and
 * other LangChain objects as JSON, configs as checkpoints, task errors as text, every task's interrupts collected
 * (`interrupts`, as LangGraph Platform adds).
 */
export function stateSnapshotToThreadState(snapshot: StateSnapshot): ThreadState {
  const tasks = snapshot.tasks.map(toTask);
  return {
    values: toJsonValue(snapshot.values ?? {}),
    next: [...snapshot.next],
    tasks,
    metadata: snapshot.metadata ? (toJsonValue(snapshot.metadata) as Record<string, unknown>) : undefined,
    created_at: snapshot.createdAt ? new Date(snapshot.createdAt).toISOString() : null,
    checkpoint: configToCheckpoint(snapshot.config),
    parent_checkpoint: configToCheckpoint(snapshot.parentConfig),
    interrupts: tasks.flatMap((task) => task.interrupts),
  };
}

/**
 * A subgraph's state inside its parent's task (read with `subgraphs`): as the reference shows it, without the
 * collected `interrupts` that only a thread's own state carries (each nested task still lists its interrupts).
 */
function subgraphState(snapshot: StateSnapshot): ThreadState {
  const { interrupts: _collected, ...state } = stateSnapshotToThreadState(snapshot);
  return state;
}

/** The state of a thread that has no graph (or no checkpoint) yet. */
export function emptyThreadState(): ThreadState {
  return { values: {}, next: [], tasks: [], created_at: null, checkpoint: null, parent_checkpoint: null, interrupts: [] };
}

/** A thread's pending interrupts by task id, as `Thread.interrupts` holds them (tasks without any are left out). */
export function interruptsByTask(state: Pick<ThreadState, 'tasks'>): Record<string, ThreadInterrupt[]> {
  return Object.fromEntries(state.tasks.filter((task) => task.interrupts.length > 0).map((task) => [task.id, task.interrupts]));
}
