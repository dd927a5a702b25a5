import { systemAssistantId, type Assistant, type AssistantRepository } from '@platform/agent-server-data-access';
import type { GraphDefaults, GraphRegistry } from '@platform/agent-server-graphs';

/**
 * Makes sure every graph has its system assistant (id `systemAssistantId(graph_id)`, name = graph id,
 * `metadata.created_by = "system"`) with the deployment's defaults for it (`LANGGRAPH_CONFIG`). Run at every
 * start: creating is insert-if-absent and updating happens under a row lock only when something changed, so two
 * replicas starting together create one assistant and at most one new version.
 */
export async function syncSystemAssistants(
  repo: AssistantRepository,
  registry: GraphRegistry,
  defaults: Record<string, GraphDefaults> = {},
): Promise<Assistant[]> {
  const synced: Assistant[] = [];
  for (const graphId of registry.ids()) {
    const wanted = {
      graph_id: graphId,
      name: graphId,
      description: registry.description(graphId) ?? null,
      config: defaults[graphId]?.config ?? {},
      context: defaults[graphId]?.context ?? {},
      metadata: { created_by: 'system' },
    };
    const assistantId = systemAssistantId(graphId);
    const { assistant, created } = await repo.insert({ assistant_id: assistantId, ...wanted });
    synced.push(created ? assistant : await repo.update(assistantId, wanted, { skipIfUnchanged: true }));
  }
  return synced;
}
