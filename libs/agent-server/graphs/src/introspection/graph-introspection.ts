import type { AgentGraph, GraphRegistry } from '../graph-registry';
import type { GraphSchema } from './graph-schema';
import { runtimeGraphSchema } from './runtime-graph-schema';

type TypeSchemas = Record<string, GraphSchema>;

// A graph whose types cannot be read has no schemas (the reason is logged where the extraction ran), where the
// reference answers 500.
async function typeSchemasOf(registry: GraphRegistry, graphId: string): Promise<TypeSchemas> {
  return registry.typeSchemas(graphId).catch(() => ({}));
}

const rootName = (schemas: TypeSchemas) => Object.keys(schemas).find((name) => !name.includes('|'));

/** A graph's schemas: those it declares at run time (zod, StateSchema), else those of its TypeScript types. */
export async function graphSchema(registry: GraphRegistry, graphId: string, graph: AgentGraph): Promise<GraphSchema> {
  const runtime = runtimeGraphSchema(graph);
  if (runtime) return runtime;
  const fromTypes = await typeSchemasOf(registry, graphId);
  const root = rootName(fromTypes);
  return root ? fromTypes[root] : {};
}

/**
 * The schemas of a graph's subgraphs by namespace (`GET /assistants/{id}/subgraphs[/{namespace}]`): its direct
 * subgraphs, only `namespace`, and with `recurse` theirs too (`parent|child`). A subgraph without runtime schemas
 * takes those of its TypeScript types, or the root graph's when its source does not name it (as the reference).
 */
export async function subgraphSchemas(
  registry: GraphRegistry,
  graphId: string,
  graph: AgentGraph,
  options: { namespace?: string; recurse?: boolean } = {},
): Promise<Record<string, GraphSchema>> {
  const result: Record<string, GraphSchema> = {};
  let fromTypes: Promise<TypeSchemas> | undefined;
  for await (const [namespace, subgraph] of graph.getSubgraphsAsync(options.namespace, options.recurse)) {
    const runtime = runtimeGraphSchema(subgraph);
    if (runtime) {
      result[namespace] = runtime;
      continue;
    }
    fromTypes ??= typeSchemasOf(registry, graphId);
    const schemas = await fromTypes;
    const root = rootName(schemas);
    result[namespace] = (root && (schemas[`${root}|${namespace}`] ?? schemas[root])) || {};
  }
  return result;
}

/** Whether a graph, or any of its subgraphs, has no runtime schema (its schemas come from its TypeScript types). */
async function readsTypes(graph: AgentGraph): Promise<boolean> {
  if (!runtimeGraphSchema(graph)) return true;
  for await (const [, subgraph] of graph.getSubgraphsAsync(undefined, true)) if (!runtimeGraphSchema(subgraph)) return true;
  return false;
}

/**
 * Reads the graphs' TypeScript schemas ahead of the first request that needs them (a server start, in the
 * background): a first `GET /assistants/{id}/schemas` or MCP `tools/list` is then answered from the cache instead of
 * waiting on the compiler. Only when some graph has no runtime schema to answer with; one extraction covers every
 * graph. A graph (factory) that cannot be built without a run's config is left for its first request. Returns the
 * graphs whose types were read.
 */
export async function prepareTypeSchemas(registry: GraphRegistry): Promise<string[]> {
  const prepared: string[] = [];
  for (const graphId of registry.ids()) {
    const graph = await registry.get(graphId, undefined, { access: 'assistants.read' }).catch(() => undefined);
    if (!graph || !(await readsTypes(graph).catch(() => false))) continue;
    await typeSchemasOf(registry, graphId);
    prepared.push(graphId);
  }
  return prepared;
}
