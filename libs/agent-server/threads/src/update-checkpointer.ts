import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';

/**
 * The server's checkpointer as a state update (`POST /threads/{id}/state`, supersteps) sees it: the checkpoints it
 * writes carry `metadata` besides LangGraph's own (the thread's graph, as LangGraph's API server records it).
 */
export class UpdateCheckpointer extends BaseCheckpointSaver {
  constructor(
    private readonly saver: BaseCheckpointSaver,
    private readonly metadata: Record<string, unknown>,
  ) {
    super(saver.serde);
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.saver.getTuple(config);
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.saver.list(config, options);
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.saver.put(config, checkpoint, { ...this.metadata, ...metadata } as CheckpointMetadata, newVersions);
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.saver.putWrites(config, writes, taskId, taskPath);
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.saver.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.saver.getNextVersion(current);
  }
}
