import type { Assistant, AssistantVersion, VersionQuery } from './assistant';
import type { AssistantRepository } from './assistants.repository';

/** `POST /assistants/{id}/versions`: the assistant's versions, newest first. */
export async function listAssistantVersions(assistants: AssistantRepository, assistantIdOrGraphId: string, query: VersionQuery): Promise<AssistantVersion[]> {
  const { assistant_id } = await assistants.resolve(assistantIdOrGraphId);
  return assistants.versions(assistant_id, query);
}

/** `POST /assistants/{id}/latest`: makes a saved version the current one. */
export async function setLatestAssistantVersion(assistants: AssistantRepository, assistantIdOrGraphId: string, version: number): Promise<Assistant> {
  const { assistant_id } = await assistants.resolve(assistantIdOrGraphId);
  return assistants.setLatest(assistant_id, version);
}
