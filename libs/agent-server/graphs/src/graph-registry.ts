import type { BaseCheckpointSaver, BaseStore, Pregel } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import { NotFoundError } from '@platform/errors';

/** A compiled LangGraph graph (CompiledStateGraph, CompiledGraph or any Pregel), ready to invoke or stream. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AgentGraph = Pregel<any, any, any, any, any, any, any, any, any, any, any>;

/** Something that compiles into a graph: a StateGraph (or other builder with `compile()`). */
export interface GraphBuilder {
  compile(options?: { checkpointer?: BaseCheckpointSaver; store?: BaseStore }): AgentGraph;
}

/**
 * What a `langgraph.json` export may hold: a compiled graph, a builder, a Promise of either, or a factory
 * `(config) => graph | builder | Promise` called per run with the run's config.
 */
export type GraphExport = AgentGraph | GraphBuilder | Promise<AgentGraph | GraphBuilder> | GraphFactory;
export type GraphFactory = (config: RunnableConfig) => AgentGraph | GraphBuilder | Promise<AgentGraph | GraphBuilder>;

export interface GraphDefinition {
  /** The graph's export, already imported. */
  source: GraphExport;
  description?: string;
}

export interface GraphRegistryDeps {
  /** graph id → definition, in `langgraph.json` order. */
  graphs: Record<string, GraphDefinition>;
  checkpointer: BaseCheckpointSaver;
  store?: BaseStore;
}

/** The graphs one Agent Server serves, each compiled with the server's checkpointer and store. */
export interface GraphRegistry {
  /** Graph ids in configuration order. */
  ids(): string[];
  has(graphId: string): boolean;
  description(graphId: string): string | undefined;
  /**
   * The graph, compiled with the server's checkpointer and store. A factory is called with `config` (the
   * run's config) every time; other exports are resolved once. Unknown id → NotFoundError.
   */
  get(graphId: string, config?: RunnableConfig): Promise<AgentGraph>;
}

function isCompiled(value: unknown): value is AgentGraph {
  return typeof value === 'object' && value !== null && typeof (value as AgentGraph).getState === 'function';
}

function isBuilder(value: unknown): value is GraphBuilder {
  return typeof value === 'object' && value !== null && typeof (value as GraphBuilder).compile === 'function';
}

export function createGraphRegistry(deps: GraphRegistryDeps): GraphRegistry {
  const resolved = new Map<string, Promise<AgentGraph>>();

  const attach = (value: AgentGraph | GraphBuilder, graphId: string): AgentGraph => {
    if (isCompiled(value)) {
      // A graph compiled by the user's module carries no saver of ours: give it the server's.
      value.checkpointer = deps.checkpointer;
      if (deps.store) value.store = deps.store;
      return value;
    }
    if (isBuilder(value)) return value.compile({ checkpointer: deps.checkpointer, store: deps.store });
    throw new TypeError(`Graph "${graphId}" is neither a compiled graph nor a graph builder`);
  };

  const definition = (graphId: string): GraphDefinition => {
    const found = deps.graphs[graphId];
    if (!found) throw new NotFoundError(`Graph "${graphId}" not found`);
    return found;
  };

  return {
    ids: () => Object.keys(deps.graphs),
    has: (graphId) => Object.hasOwn(deps.graphs, graphId),
    description: (graphId) => deps.graphs[graphId]?.description,
    async get(graphId, config = {}) {
      const { source } = definition(graphId);
      if (typeof source === 'function') return attach(await source(config), graphId);
      let graph = resolved.get(graphId);
      if (!graph) {
        graph = Promise.resolve(source).then((value) => attach(value, graphId));
        resolved.set(graphId, graph);
      }
      return graph;
    },
  };
}
