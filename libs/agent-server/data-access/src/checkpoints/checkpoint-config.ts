import type { RunnableConfig } from '@langchain/core/runnables';
import { getCheckpointId } from '@langchain/langgraph-checkpoint';

/** Where a checkpoint lives: thread, namespace ('' = root graph) and, when known, its id. */
export interface CheckpointLocation {
  threadId: string;
  checkpointNs: string;
  checkpointId: string | undefined;
}

/** The location named by `config.configurable`, or undefined when it names no thread. */
export function readLocation(config: RunnableConfig): CheckpointLocation | undefined {
  const threadId: unknown = config.configurable?.['thread_id'];
  if (threadId === undefined || threadId === null || threadId === '') return undefined;
  const checkpointNs: unknown = config.configurable?.['checkpoint_ns'] ?? '';
  return { threadId: String(threadId), checkpointNs: String(checkpointNs), checkpointId: getCheckpointId(config) || undefined };
}

/** Like {@link readLocation}, but a missing thread id is the caller's mistake. */
export function requireLocation(config: RunnableConfig, action: string): CheckpointLocation {
  const location = readLocation(config);
  if (!location) {
    throw new Error(`${action}: config.configurable.thread_id is required (pass { configurable: { thread_id } })`);
  }
  return location;
}

/** The config that points at one stored checkpoint. */
export function locationConfig(threadId: string, checkpointNs: string, checkpointId: string): RunnableConfig {
  return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpointId } };
}
