import type { AccessFilter } from '@platform/agent-server-auth';
import type { Assistant, AssistantRepository, AssistantVersion, VersionQuery } from '@platform/agent-server-data-access';

/** `POST /assistants/{id}/versions`: the assistant's versions, newest first (the caller's filter applies to each). */
export async function listAssistantVersions(
  assistants: AssistantRepository,
  assistantIdOrGraphId: string,
  query: VersionQuery,
  visible?: AccessFilter,
): Promise<AssistantVersion[]> {
  const { assistant_id } = await assistants.resolve(assistantIdOrGraphId, visible);
  return assistants.versions(assistant_id, query, visible);
}

/** `POST /assistants/{id}/latest`: makes a saved version the current one. */
export async function setLatestAssistantVersion(
  assistants: AssistantRepository,
  assistantIdOrGraphId: string,
  version: number,
  visible?: AccessFilter,
): Promise<Assistant> {
  const { assistant_id } = await assistants.resolve(assistantIdOrGraphId, visible);
  return assistants.setLatest(assistant_id, version);
}
