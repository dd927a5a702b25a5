import type { BaseCheckpointSaver, BaseStore, Pregel } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import { NotFoundError } from '@platform/errors';
import type { GraphSchema } from './introspection/graph-schema';
import type { TypeScriptSchemaSource } from './introspection/typescript/typescript-schema-source';

/** A compiled LangGraph graph (CompiledStateGraph, CompiledGraph or any Pregel), ready to invoke or stream. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AgentGraph = Pregel<any, any, any, any, any, any, any, any, any, any, any>;

/** Something that compiles into a graph: a StateGraph (or other builder with `compile()`). */
export interface GraphBuilder {
  compile(options?: { checkpointer?: BaseCheckpointSaver; store?: BaseStore }): AgentGraph;
}

/**
 * What a `langgraph.json` export may hold: a compiled graph, a builder, a Promise of either, or a factory
 * `(config, runtime) => graph | builder | Promise` called on every use with the config of that use.
 */
export type GraphExport = AgentGraph | GraphBuilder | Promise<AgentGraph | GraphBuilder> | GraphFactory;
export type GraphFactory = (config: RunnableConfig, runtime: GraphFactoryRuntime) => AgentGraph | GraphBuilder | Promise<AgentGraph | GraphBuilder>;

/** What a graph is built for, as the reference server tells a factory (its second argument). */
export type GraphAccess = 'threads.create_run' | 'threads.read' | 'threads.update' | 'assistants.read';

export interface GraphFactoryRuntime {
  accessContext: GraphAccess;
  /** For a run (`threads.create_run`): the run's context; null otherwise. */
  executionRuntime: { context?: unknown } | null;
}

export interface GraphDefinition {
  /** The graph's export, already imported. */
  source: GraphExport;
  description?: string;
  /** Where it is exported (absolute file, export name): its TypeScript types are read from there. */
  sourceFile?: string;
  exportName?: string;
}

export interface GraphRegistryDeps {
  /** graph id → definition, in `langgraph.json` order. */
  graphs: Record<string, GraphDefinition>;
  checkpointer: BaseCheckpointSaver;
  store?: BaseStore;
  /** Reads schemas from graphs' TypeScript sources (for graphs whose state has no runtime schema). */
  typeSchemas?: TypeScriptSchemaSource;
}

/** Options of one use of a graph: what it is built for, and a run's context (both passed to a factory). */
export interface GraphUse {
  access?: GraphAccess;
  context?: unknown;
}

/** The graphs one Agent Server serves, each compiled with the server's checkpointer and store. */
export interface GraphRegistry {
  /** Graph ids in configuration order. */
  ids(): string[];
  has(graphId: string): boolean;
  description(graphId: string): string | undefined;
  /**
   * The graph, compiled with the server's checkpointer and store. A factory is called with `config` (the config
   * of this use: the run's, the thread's, the assistant's) and the runtime every time; other exports are resolved
   * once. Unknown id → NotFoundError.
   */
  get(graphId: string, config?: RunnableConfig, use?: GraphUse): Promise<AgentGraph>;
  /**
   * Schemas read from the graph's TypeScript source, by graph name (the export's name; `name|node` for its
   * subgraphs). Rejects when the graph has no source to read or its types cannot be read.
   */
  typeSchemas(graphId: string): Promise<Record<string, GraphSchema>>;
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
    async get(graphId, config, use = {}) {
      const { source } = definition(graphId);
      if (typeof source === 'function') {
        const access = use.access ?? 'assistants.read';
        const runtime: GraphFactoryRuntime = {
          accessContext: access,
          executionRuntime: access === 'threads.create_run' ? { context: use.context } : null,
        };
        return attach(await source(config ?? { configurable: {} }, runtime), graphId);
      }
      let graph = resolved.get(graphId);
      if (!graph) {
        graph = Promise.resolve(source).then((value) => attach(value, graphId));
        resolved.set(graphId, graph);
      }
      return graph;
    },
    async typeSchemas(graphId) {
      definition(graphId);
      if (!deps.typeSchemas) throw new Error('This server reads no TypeScript sources');
      return deps.typeSchemas.schemas(graphId);
    },
  };
}
