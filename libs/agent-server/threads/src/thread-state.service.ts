import type { RunnableConfig } from '@langchain/core/runnables';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { CheckpointsRepository, Thread, ThreadRepository } from '@platform/agent-server-data-access';
import { toJsonValue, type AgentGraph, type GraphAccess, type GraphRegistry } from '@platform/agent-server-graphs';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import { commandFromJson, type CommandJson } from './command-from-json';
import { graphInputError } from './graph-errors';
import { emptyThreadState, interruptsByTask, stateSnapshotToThreadState } from './state-snapshot.mapper';
import { graphIdOf } from './thread';
import type { CheckpointSelector, ThreadState } from './thread-state';
import { UpdateCheckpointer } from './update-checkpointer';

export interface StateUpdate {
  values?: unknown;
  as_node?: string | null;
  checkpoint_id?: string | null;
  checkpoint?: CheckpointSelector | null;
}

export interface HistoryQuery {
  limit?: number;
  /** Only states older than this checkpoint (its id, or a selector holding it). */
  before?: string | CheckpointSelector | null;
  /** JSON containment on the checkpoints' metadata. */
  metadata?: Record<string, unknown> | null;
  checkpoint?: CheckpointSelector | null;
}

/** One superstep of `POST /threads` `supersteps`: updates applied together, each as if written by `as_node`. */
export interface Superstep {
  updates: { values?: unknown; command?: CommandJson | null; as_node: string }[];
}

/** A thread's state through its graph: reads, history, updates, and the cache of it on the thread row. */
export interface ThreadStateService {
  /** The latest state, or the one `checkpoint` picks; a thread without a graph yet has an empty state. */
  getState(threadId: string, options?: { subgraphs?: boolean; checkpoint?: CheckpointSelector | null }): Promise<ThreadState>;
  /** States newest first (default 10); none for a thread without a graph yet. */
  history(threadId: string, query?: HistoryQuery): Promise<ThreadState[]>;
  /**
   * Writes `values` as `as_node` (from `checkpoint` when given); the thread becomes interrupted when the new state
   * has work left (`next`), else idle. 409 while a run is busy, 400 without a graph.
   */
  updateState(threadId: string, update: StateUpdate): Promise<{ checkpoint: Record<string, unknown> }>;
  /** Applies supersteps in order (`graph.bulkUpdateState`). 400 without a graph. */
  applySupersteps(threadId: string, supersteps: Superstep[]): Promise<{ checkpoint: Record<string, unknown> }>;
  /** Merges `metadata` into the latest root checkpoint's metadata. */
  patchStateMetadata(threadId: string, metadata: Record<string, unknown>): Promise<void>;
  /** Reads the latest state through the graph and caches its values and interrupts on the thread (not its status). */
  refreshThreadCache(threadId: string): Promise<ThreadState>;
  /** Deletes all checkpoints but the newest of each namespace (prune `keep_latest`); returns how many went. */
  keepLatestCheckpoints(threadId: string): Promise<number>;
}

export interface ThreadStateServiceDeps {
  registry: GraphRegistry;
  checkpointer: BaseCheckpointSaver;
  threads: ThreadRepository;
  checkpoints: CheckpointsRepository;
}

function configurableOf(config: Record<string, unknown>): Record<string, unknown> {
  const configurable = config['configurable'];
  return typeof configurable === 'object' && configurable !== null ? (configurable as Record<string, unknown>) : {};
}

/** The config naming the thread's checkpoint (the latest root one unless the selector says otherwise). */
function stateConfig(thread: Thread, selector?: CheckpointSelector | null): RunnableConfig {
  return {
    configurable: {
      thread_id: thread.thread_id,
      checkpoint_ns: selector?.checkpoint_ns ?? '',
      ...(selector?.checkpoint_id ? { checkpoint_id: selector.checkpoint_id } : {}),
      ...(selector?.checkpoint_map ? { checkpoint_map: selector.checkpoint_map } : {}),
    },
  };
}

/** Where an update wrote its checkpoint: the `configurable` LangGraph answered with (thread, namespace, id). */
function writtenCheckpoint(next: RunnableConfig, threadId: string): Record<string, unknown> {
  return toJsonValue(next.configurable ?? { thread_id: threadId, checkpoint_ns: '' }) as Record<string, unknown>;
}

function beforeConfig(before: HistoryQuery['before']): RunnableConfig | undefined {
  const checkpointId = typeof before === 'string' ? before : before?.checkpoint_id;
  return checkpointId ? { configurable: { checkpoint_id: checkpointId } } : undefined;
}

export function createThreadStateService(deps: ThreadStateServiceDeps): ThreadStateService {
  const { threads } = deps;

  // A graph factory gets the thread's config (what its runs were started with), as in the reference.
  const graphOf = (thread: Thread, graphId: string, access: GraphAccess): Promise<AgentGraph> =>
    deps.registry.get(graphId, { ...thread.config, configurable: { ...configurableOf(thread.config), thread_id: thread.thread_id } }, { access });

  // The graph a state update goes through, and its config: an update of the root graph writes through a
  // checkpointer naming the thread's graph in the checkpoint's metadata. (Lent to a subgraph's namespace, a
  // checkpointer would also let LangGraph accept a namespace no subgraph has.)
  const updating = async (thread: Thread, selector?: CheckpointSelector | null): Promise<{ graph: AgentGraph; config: RunnableConfig }> => {
    const graphId = graphIdOf(thread);
    if (!graphId) throw new InputError(`Thread ${thread.thread_id} has no graph ID`);
    const config = stateConfig(thread, selector);
    if (config.configurable?.['checkpoint_ns']) return { graph: await graphOf(thread, graphId, 'threads.update'), config };
    const checkpointer = new UpdateCheckpointer(deps.checkpointer, { graph_id: graphId });
    return {
      graph: await graphOf(thread, graphId, 'threads.update'),
      config: { ...config, configurable: { ...config.configurable, __pregel_checkpointer: checkpointer } },
    };
  };

  const readState = async (thread: Thread, subgraphs: boolean, selector?: CheckpointSelector | null): Promise<ThreadState> => {
    const graphId = graphIdOf(thread);
    if (!graphId) return emptyThreadState();
    const graph = await graphOf(thread, graphId, 'threads.read');
    const state = stateSnapshotToThreadState(await graph.getState(stateConfig(thread, selector), { subgraphs }));
    // As LangGraph's API server: the root namespace is not named in a state's metadata.
    if (state.metadata?.['checkpoint_ns'] === '') delete state.metadata['checkpoint_ns'];
    return state;
  };

  // After an update outside a run, the status follows the state: work left to do (or an interrupt) → interrupted.
  const cache = async (thread: Thread, options: { settleStatus?: boolean } = {}): Promise<ThreadState> => {
    const state = await readState(thread, false);
    if (!graphIdOf(thread)) return state;
    const status = options.settleStatus ? (state.next.length > 0 ? 'interrupted' : 'idle') : undefined;
    await threads.saveState(thread.thread_id, { values: state.values, interrupts: interruptsByTask(state), status });
    return state;
  };

  return {
    async getState(threadId, options = {}) {
      return readState(await threads.get(threadId), options.subgraphs ?? false, options.checkpoint);
    },

    async history(threadId, query = {}) {
      const thread = await threads.get(threadId);
      const graphId = graphIdOf(thread);
      if (!graphId) return [];
      const graph = await graphOf(thread, graphId, 'threads.read');
      const states: ThreadState[] = [];
      const snapshots = graph.getStateHistory(stateConfig(thread, query.checkpoint), {
        limit: query.limit ?? 10,
        before: beforeConfig(query.before),
        filter: query.metadata ?? undefined,
      });
      for await (const snapshot of snapshots) states.push(stateSnapshotToThreadState(snapshot));
      return states;
    },

    async updateState(threadId, update) {
      const thread = await threads.get(threadId);
      // The run owns the thread's state until it ends; a write now would race its next checkpoint.
      if (thread.status === 'busy') throw new ConflictError('Thread is busy');
      const selector = { ...update.checkpoint, ...(update.checkpoint_id ? { checkpoint_id: update.checkpoint_id } : {}) };
      const { graph, config } = await updating(thread, selector);
      const next = await graph.updateState(config, update.values, update.as_node ?? undefined).catch((err: unknown) => {
        throw graphInputError(err);
      });
      await cache(thread, { settleStatus: true });
      return { checkpoint: writtenCheckpoint(next, thread.thread_id) };
    },

    async applySupersteps(threadId, supersteps) {
      const thread = await threads.get(threadId);
      const { graph, config } = await updating(thread);
      const steps = supersteps.map((superstep) => ({
        updates: superstep.updates.map((update) => ({
          values: update.command ? commandFromJson(update.command) : update.values,
          asNode: update.as_node,
        })),
      }));
      const next = await graph.bulkUpdateState(config, steps).catch((err: unknown) => {
        throw graphInputError(err);
      });
      await cache(thread, { settleStatus: true });
      return { checkpoint: writtenCheckpoint(next, thread.thread_id) };
    },

    async patchStateMetadata(threadId, metadata) {
      const thread = await threads.get(threadId);
      if (!(await deps.checkpoints.patchLatestRootMetadata(thread.thread_id, metadata))) throw new NotFoundError(`Thread '${thread.thread_id}' has no state yet`);
    },

    async refreshThreadCache(threadId) {
      return cache(await threads.get(threadId));
    },

    async keepLatestCheckpoints(threadId) {
      const thread = await threads.get(threadId);
      return deps.checkpoints.keepLatest(thread.thread_id, deps.checkpointer.serde);
    },
  };
}
