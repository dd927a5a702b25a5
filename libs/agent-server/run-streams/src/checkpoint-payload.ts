import { configToCheckpoint, taskConfigToCheckpoint } from '@platform/agent-server-threads';

// The payloads of the `debug`, `tasks` and `checkpoints` stream modes, shaped as LangGraph's API server shapes them.

type Config = { configurable?: Record<string, unknown>; [key: string]: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isConfig = (value: unknown): value is Config => isRecord(value) && isRecord(value['configurable']);

// Internal keys (`__pregel_*`, the lent checkpointer) and callbacks are not for clients, nor serialisable.
function publicConfig(config: unknown): unknown {
  if (!isConfig(config)) return config;
  const { callbacks: _callbacks, ...rest } = config;
  const configurable = Object.fromEntries(Object.entries(config.configurable ?? {}).filter(([key]) => !key.startsWith('__')));
  return { ...rest, configurable };
}

/** A task of a `tasks` event or of a checkpoint: a subgraph task's state config becomes its `checkpoint`. */
export function taskPayload(task: unknown): unknown {
  if (!isRecord(task)) return task;
  const checkpoint = isConfig(task['state']) ? taskConfigToCheckpoint(task['state']) : null;
  if (!checkpoint) return task;
  const { state: _state, ...rest } = task;
  return { ...rest, checkpoint };
}

/** A checkpoint of a `debug` event: snake_case, `checkpoint`/`parent_checkpoint` refs, no internal config. */
export function debugCheckpointPayload(payload: unknown): unknown {
  if (!isRecord(payload)) return payload;
  const { parentConfig, config, tasks, ...rest } = payload;
  return {
    ...rest,
    config: publicConfig(config),
    parent_config: publicConfig(parentConfig),
    checkpoint: configToCheckpoint(config as Config | undefined),
    parent_checkpoint: configToCheckpoint(parentConfig as Config | undefined),
    tasks: Array.isArray(tasks) ? tasks.map(taskPayload) : tasks,
  };
}

/** A `checkpoints` event: the checkpoint's values, metadata and next nodes. */
export function checkpointPayload(payload: unknown): unknown {
  if (!isRecord(payload)) return payload;
  return { values: payload['values'], metadata: payload['metadata'], next: payload['next'] };
}

/** A `debug` event: its checkpoint and task results shaped as above. */
export function debugPayload(chunk: unknown): unknown {
  if (!isRecord(chunk)) return chunk;
  if (chunk['type'] === 'checkpoint') return { ...chunk, payload: debugCheckpointPayload(chunk['payload']) };
  if (chunk['type'] === 'task_result') return { ...chunk, payload: taskPayload(chunk['payload']) };
  return chunk;
}
