import type { AccessFilter } from '@platform/agent-server-auth';
import type { Assistant, AssistantQuery, AssistantRepository } from '@platform/agent-server-data-access';

/** `POST /assistants/search`: one page of matching assistants and how many match in all (for the pagination headers). */
export async function searchAssistants(
  assistants: AssistantRepository,
  query: AssistantQuery,
  visible?: AccessFilter,
): Promise<{ items: Assistant[]; total: number }> {
  const { limit: _limit, offset: _offset, sortBy: _sortBy, sortOrder: _sortOrder, ...filter } = query;
  const [items, total] = await Promise.all([assistants.search(query, visible), assistants.count(filter, visible)]);
  return { items, total };
}
