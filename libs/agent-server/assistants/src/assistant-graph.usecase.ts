import type { RunnableConfig } from '@langchain/core/runnables';
import type { AccessFilter } from '@platform/agent-server-auth';
import {
  drawGraph,
  graphSchema,
  subgraphSchemas,
  toAssistantGraphSchemas,
  type AgentGraph,
  type AssistantGraphSchemas,
  type GraphDrawing,
  type GraphSchema,
} from '@platform/agent-server-graphs';
import type { Assistant } from '@platform/agent-server-data-access';
import type { AssistantsDeps } from './assistants.deps';

/** The assistant's config (snake_case on the wire) as LangGraph takes it, as the reference builds it for factories. */
export function assistantRunnableConfig(assistant: Assistant): RunnableConfig {
  const { configurable, tags, recursion_limit, metadata, run_name, max_concurrency } = assistant.config as {
    configurable?: Record<string, unknown>;
    tags?: string[];
    recursion_limit?: number;
    metadata?: Record<string, unknown>;
    run_name?: string;
    max_concurrency?: number;
  };
  return {
    ...(configurable && typeof configurable === 'object' ? { configurable } : {}),
    ...(Array.isArray(tags) ? { tags } : {}),
    ...(metadata && typeof metadata === 'object' ? { metadata } : {}),
    ...(typeof run_name === 'string' ? { runName: run_name } : {}),
    ...(typeof max_concurrency === 'number' ? { maxConcurrency: max_concurrency } : {}),
    ...(typeof recursion_limit === 'number' ? { recursionLimit: recursion_limit } : {}),
  };
}

// A factory graph is built with the assistant's config, for reading (`assistants.read`).
async function graphOf(
  deps: AssistantsDeps,
  assistantIdOrGraphId: string,
  visible: AccessFilter | undefined,
): Promise<{ assistant: Assistant; graph: AgentGraph; config: RunnableConfig }> {
  const assistant = await deps.assistants.resolve(assistantIdOrGraphId, visible);
  const config = assistantRunnableConfig(assistant);
  return { assistant, graph: await deps.registry.get(assistant.graph_id, config, { access: 'assistants.read' }), config };
}

/** `GET /assistants/{id}/graph`: the drawable graph, subgraphs included with `xray`. */
export async function getAssistantGraph(
  deps: AssistantsDeps,
  assistantIdOrGraphId: string,
  options: { xray?: boolean | number } = {},
  visible?: AccessFilter,
): Promise<GraphDrawing> {
  const { graph, config } = await graphOf(deps, assistantIdOrGraphId, visible);
  return drawGraph(graph, { xray: options.xray, config });
}

/** `GET /assistants/{id}/schemas`: the graph id with the input, output, state, config and context schemas. */
export async function getAssistantSchemas(deps: AssistantsDeps, assistantIdOrGraphId: string, visible?: AccessFilter): Promise<AssistantGraphSchemas> {
  const { assistant, graph } = await graphOf(deps, assistantIdOrGraphId, visible);
  return toAssistantGraphSchemas(assistant.graph_id, await graphSchema(deps.registry, assistant.graph_id, graph));
}

/** `GET /assistants/{id}/subgraphs[/{namespace}]`: schemas of the graph's subgraphs by namespace. */
export async function getAssistantSubgraphs(
  deps: AssistantsDeps,
  assistantIdOrGraphId: string,
  options: { namespace?: string; recurse?: boolean } = {},
  visible?: AccessFilter,
): Promise<Record<string, GraphSchema>> {
  const { assistant, graph } = await graphOf(deps, assistantIdOrGraphId, visible);
  return subgraphSchemas(deps.registry, assistant.graph_id, graph, options);
}

/** The keys of the assistant's graph state (its channels), without reading any schema. */
export async function getAssistantStateKeys(deps: AssistantsDeps, assistantIdOrGraphId: string, visible?: AccessFilter): Promise<string[]> {
  const { graph } = await graphOf(deps, assistantIdOrGraphId, visible);
  return graph.streamChannelsList.map(String);
}
