import { MemorySaver, type BaseCheckpointSaver, type RunControl } from '@langchain/langgraph';
import { LANGGRAPH_VERSION, type AgentGraph } from '@platform/agent-server-graphs';
import type { RunRecord } from '@platform/agent-server-run-records';
import { RunCheckpointer } from './run-checkpointer';
import type { RunTracing } from './run-tracing';
import type { StreamMapper } from '@platform/agent-server-run-streams';

/**
 * Where a run's checkpoints go. A stateless run's thread goes away with it: none (as on LangGraph Platform, so
 * `interrupt()` needs a thread), unless its stream shows checkpoints, then in memory. Other runs write through a
 * RunCheckpointer, which records what they write.
 */
export function runSaver(run: RunRecord, checkpointer: BaseCheckpointSaver): BaseCheckpointSaver | undefined {
  if (!run.kwargs.temporary) return new RunCheckpointer(checkpointer, run.run_id);
  return run.kwargs.stream_mode.some((mode) => mode === 'checkpoints' || mode === 'debug') ? new MemorySaver() : undefined;
}

const uncheckpointed = new WeakMap<AgentGraph, AgentGraph>();

/** The graph with checkpointing off (`checkpointer: false` wins over any saver), made once per graph. */
export function withoutCheckpointer(graph: AgentGraph): AgentGraph {
  let copy = uncheckpointed.get(graph);
  if (!copy) {
    copy = graph.withConfig({}) as AgentGraph;
    copy.checkpointer = false;
    uncheckpointed.set(graph, copy);
  }
  return copy;
}

export interface GraphRunContext {
  run: RunRecord;
  saver: BaseCheckpointSaver | undefined;
  mapper: StreamMapper;
  signal: AbortSignal;
  control?: RunControl;
  /** A retry resuming from the run's own latest checkpoint. */
  resuming: boolean;
  tracing?: RunTracing;
  /** This deployment's public URL, recorded in the run's checkpoints as `langgraph_api_url`. */
  apiUrl?: string;
}

/**
 * What every checkpoint of a run records about it besides its own metadata, as LangGraph's API server writes it: the
 * attempt, the LangGraph version, the plan and host (this server is self-hosted) and the deployment's URL.
 */
function serverMetadata(ctx: GraphRunContext): Record<string, unknown> {
  return {
    run_attempt: ctx.run.attempt,
    langgraph_version: LANGGRAPH_VERSION,
    langgraph_plan: 'developer',
    langgraph_host: 'self-hosted',
    ...(ctx.apiUrl ? { langgraph_api_url: ctx.apiUrl } : {}),
  };
}

/**
 * Options for `graph.stream`: the run's config (ids the graph and the saver read in `configurable`, the saver lent
 * through it), context, modes, interrupts, durability, cancellation, and the run id as the root run (trace) id.
 */
export function graphStreamOptions(ctx: GraphRunContext): Record<string, unknown> & { subgraphs: boolean; runId: string } {
  const { run, saver } = ctx;
  const { kwargs } = run;
  const { configurable, tags, recursion_limit, metadata } = kwargs.config;
  const ids = { run_id: run.run_id, thread_id: run.thread_id, assistant_id: run.assistant_id, graph_id: configurable['graph_id'] };
  const ownConfigurable: Record<string, unknown> = saver ? { ...configurable, __pregel_checkpointer: saver } : { ...configurable };
  // A retry continues from the run's own latest checkpoint, not from the one the request named.
  if (ctx.resuming) for (const key of ['checkpoint_id', 'checkpoint_ns', 'checkpoint_map']) delete ownConfigurable[key];
  return {
    configurable: ownConfigurable,
    context: kwargs.context,
    tags,
    ...(recursion_limit ? { recursionLimit: recursion_limit } : {}),
    metadata: { ...metadata, ...ids, ...serverMetadata(ctx) },
    streamMode: ctx.mapper.graphModes(),
    subgraphs: kwargs.subgraphs,
    interruptBefore: kwargs.interrupt_before,
    interruptAfter: kwargs.interrupt_after,
    ...(kwargs.durability ? { durability: kwargs.durability } : {}),
    signal: ctx.signal,
    control: ctx.control,
    runId: run.run_id,
    ...(ctx.tracing ? { callbacks: ctx.tracing.callbacks(run) } : {}),
  };
}
