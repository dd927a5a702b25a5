import type { RunnableConfig } from '@langchain/core/runnables';
import type { AccessFilter } from '@platform/agent-server-auth';
import { drawGraph, graphSchemas, subgraphSchemas, type AgentGraph, type GraphDrawing, type GraphSchemas } from '@platform/agent-server-graphs';
import type { Assistant } from './assistant';
import type { AssistantsDeps } from './assistants.deps';

/** The assistant's config (snake_case on the wire) as LangGraph takes it; graph factories are called with it. */
export function assistantRunnableConfig(assistant: Assistant): RunnableConfig {
  const { configurable, tags, recursion_limit, metadata } = assistant.config as {
    configurable?: Record<string, unknown>;
    tags?: string[];
    recursion_limit?: number;
    metadata?: Record<string, unknown>;
  };
  return {
    configurable: { ...configurable, assistant_id: assistant.assistant_id, graph_id: assistant.graph_id },
    ...(Array.isArray(tags) ? { tags } : {}),
    ...(typeof recursion_limit === 'number' ? { recursionLimit: recursion_limit } : {}),
    ...(metadata && typeof metadata === 'object' ? { metadata } : {}),
  };
}

async function graphOf(
  deps: AssistantsDeps,
  assistantIdOrGraphId: string,
  visible: AccessFilter | undefined,
): Promise<{ assistant: Assistant; graph: AgentGraph; config: RunnableConfig }> {
  const assistant = await deps.assistants.resolve(assistantIdOrGraphId, visible);
  const config = assistantRunnableConfig(assistant);
  return { assistant, graph: await deps.registry.get(assistant.graph_id, config), config };
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
export async function getAssistantSchemas(deps: AssistantsDeps, assistantIdOrGraphId: string, visible?: AccessFilter): Promise<GraphSchemas & { graph_id: string }> {
  const { assistant, graph } = await graphOf(deps, assistantIdOrGraphId, visible);
  return { graph_id: assistant.graph_id, ...graphSchemas(graph) };
}

/** `GET /assistants/{id}/subgraphs[/{namespace}]`: schemas of the graph's subgraphs by namespace. */
export async function getAssistantSubgraphs(
  deps: AssistantsDeps,
  assistantIdOrGraphId: string,
  options: { namespace?: string; recurse?: boolean } = {},
  visible?: AccessFilter,
): Promise<Record<string, GraphSchemas>> {
  const { graph } = await graphOf(deps, assistantIdOrGraphId, visible);
  return subgraphSchemas(graph, options);
}
