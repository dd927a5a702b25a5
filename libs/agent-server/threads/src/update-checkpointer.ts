import type { RunnableConfig } from '@langchain/core/runnables';
import type { BaseCheckpointSaver, ChannelVersions, Checkpoint, CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { DelegatingCheckpointSaver } from '@platform/agent-server-checkpointer';

/**
 * The server's checkpointer as a state update (`POST /threads/{id}/state`, supersteps) sees it: the checkpoints it
 * writes carry `metadata` besides LangGraph's own (the thread's graph, as LangGraph's API server records it).
 */
export class UpdateCheckpointer extends DelegatingCheckpointSaver {
  constructor(
    saver: BaseCheckpointSaver,
    private readonly metadata: Record<string, unknown>,
  ) {
    super(saver);
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.saver.put(config, checkpoint, { ...this.metadata, ...metadata } as CheckpointMetadata, newVersions);
  }
}
