import type { RunnableConfig } from '@langchain/core/runnables';
import type { AgentGraph } from '../graph-registry';

/** The drawable graph as `GET /assistants/{id}/graph` returns it (`Graph.toJSON()` of LangChain core). */
export interface GraphDrawing {
  nodes: { id: string | number; type?: string; data?: unknown; metadata?: unknown }[];
  edges: { source: string | number; target: string | number; data?: string; conditional?: boolean }[];
}

/** `xray`: draw subgraphs too (true), or down to that depth (a number). */
export async function drawGraph(graph: AgentGraph, options: { xray?: boolean | number; config?: RunnableConfig } = {}): Promise<GraphDrawing> {
  // CompiledGraph reads `xray` from the config it is given; Pregel's signature does not declare it.
  const config: RunnableConfig & { xray?: boolean | number } = { ...options.config, xray: options.xray };
  const drawable = await graph.getGraphAsync(config);
  return drawable.toJSON() as GraphDrawing;
}
