/** A checkpoint as the API names one: where it lives, not its contents. */
export interface CheckpointRef {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  checkpoint_map?: Record<string, unknown>;
}

type Config = { configurable?: Record<string, unknown>; [key: string]: unknown };

const isConfig = (value: unknown): value is Config =>
  typeof value === 'object' && value !== null && typeof (value as Config).configurable === 'object' && (value as Config).configurable !== null;

/** The checkpoint a RunnableConfig points at, or null. */
export function configToCheckpoint(config: unknown): CheckpointRef | null {
  if (!isConfig(config)) return null;
  const { thread_id, checkpoint_ns, checkpoint_id, checkpoint_map } = config.configurable as Record<string, unknown>;
  if (typeof thread_id !== 'string' || typeof checkpoint_id !== 'string') return null;
  return {
    thread_id,
    checkpoint_ns: typeof checkpoint_ns === 'string' ? checkpoint_ns : '',
    checkpoint_id,
    ...(checkpoint_map && typeof checkpoint_map === 'object' ? { checkpoint_map: checkpoint_map as Record<string, unknown> } : {}),
  };
}

// Internal keys (`__pregel_*`, the lent checkpointer) and callbacks are not for clients, nor serialisable.
function publicConfig(config: unknown): unknown {
  if (!isConfig(config)) return config;
  const { callbacks: _callbacks, ...rest } = config;
  const configurable = Object.fromEntries(Object.entries(config.configurable ?? {}).filter(([key]) => !key.startsWith('__')));
  return { ...rest, configurable };
}

type Task = Record<string, unknown> & { state?: unknown };

/** A `tasks` payload, or a task of a checkpoint: a subgraph task's state config becomes its `checkpoint`. */
export function taskPayload(task: unknown): unknown {
  if (typeof task !== 'object' || task === null) return task;
  const { state, ...rest } = task as Task;
  const checkpoint = configToCheckpoint(state);
  return checkpoint ? { ...rest, checkpoint } : task;
}

/** A `checkpoints` payload as the API shows it (snake_case, checkpoint refs, no internal config). */
export function checkpointPayload(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  const { parentConfig, config, tasks, ...rest } = payload as Record<string, unknown>;
  return {
    ...rest,
    config: publicConfig(config),
    parent_config: publicConfig(parentConfig),
    checkpoint: configToCheckpoint(config),
    parent_checkpoint: configToCheckpoint(parentConfig),
    tasks: Array.isArray(tasks) ? tasks.map(taskPayload) : tasks,
  };
}

/** A `debug` payload: its checkpoint and task results shaped as above. */
export function debugPayload(chunk: unknown): unknown {
  if (typeof chunk !== 'object' || chunk === null) return chunk;
  const debug = chunk as { type?: string; payload?: unknown };
  if (debug.type === 'checkpoint') return { ...debug, payload: checkpointPayload(debug.payload) };
  if (debug.type === 'task_result' || debug.type === 'task') return { ...debug, payload: taskPayload(debug.payload) };
  return chunk;
}
