import type { RunnableConfig } from '@langchain/core/runnables';
import { type BaseCheckpointSaver, type ChannelVersions, type Checkpoint, type CheckpointMetadata, type PendingWrite, WRITES_IDX_MAP } from '@langchain/langgraph-checkpoint';
import { DelegatingCheckpointSaver } from '@platform/agent-server-checkpointer';
import type { CheckpointKeys } from './run-queue.repository';

const location = (config: RunnableConfig) => ({
  threadId: String(config.configurable?.['thread_id'] ?? ''),
  ns: String(config.configurable?.['checkpoint_ns'] ?? ''),
  checkpointId: String(config.configurable?.['checkpoint_id'] ?? ''),
});

// Where a checkpoint is, not what it is about: kept out of its metadata.
const LOCATION_KEYS = new Set(['checkpoint_ns', 'checkpoint_id', 'run_id', 'thread_id']);

/**
 * A run's checkpoint metadata as LangGraph's API server writes it: the run config's `configurable` (internal and
 * location keys left out) and `metadata` (the run's metadata, graph, assistant, attempt, versions), then what
 * LangGraph wrote (source, step, parents, ...), then the run id. So the history can be searched by a run's metadata.
 */
export function runCheckpointMetadata(config: RunnableConfig, metadata: CheckpointMetadata, runId: string): CheckpointMetadata {
  const configurable = Object.entries(config.configurable ?? {}).filter(([key]) => !key.startsWith('__') && !LOCATION_KEYS.has(key));
  return { ...Object.fromEntries(configurable), ...config.metadata, ...metadata, run_id: runId } as CheckpointMetadata;
}

/**
 * The server's checkpointer as one run sees it: every checkpoint it writes carries the run's metadata and id (a
 * retry on another replica resumes from it; a rollback whose replica died finds it), and every row it writes is
 * remembered, so a rollback deletes exactly those. Reads and everything else go straight to the saver.
 */
export class RunCheckpointer extends DelegatingCheckpointSaver {
  private readonly keys: CheckpointKeys = { checkpoints: [], writes: [], blobs: [] };
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    saver: BaseCheckpointSaver,
    private readonly runId: string,
  ) {
    super(saver);
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const { ns } = location(config);
    this.keys.checkpoints.push({ ns, id: checkpoint.id });
    for (const [channel, version] of Object.entries(newVersions)) this.keys.blobs.push({ ns, channel, version: String(version) });
    return this.track(this.saver.put(config, checkpoint, runCheckpointMetadata(config, metadata, this.runId), newVersions));
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { ns, checkpointId } = location(config);
    writes.forEach(([channel], i) => this.keys.writes.push({ ns, checkpointId, taskId, idx: (WRITES_IDX_MAP as Record<string, number>)[channel] ?? i }));
    return this.track(this.saver.putWrites(config, writes, taskId, taskPath));
  }

  /** Waits until no write of this run is in flight (an aborted graph may leave some behind). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** What this run wrote so far. */
  written(): CheckpointKeys {
    return this.keys;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    const done = () => this.inFlight.delete(promise);
    promise.then(done, done);
    return promise;
  }
}
