import type { AccessFilter } from '@platform/agent-server-auth';
import type { Assistant, AssistantChanges } from '@platform/agent-server-data-access';
import { NotFoundError } from '@platform/errors';
import type { AssistantsDeps } from './assistants.deps';

/** `PATCH /assistants/{id}`: the changes become a new version, which becomes current. */
export async function updateAssistant(deps: AssistantsDeps, assistantIdOrGraphId: string, changes: AssistantChanges, visible?: AccessFilter): Promise<Assistant> {
  const { assistant_id } = await deps.assistants.resolve(assistantIdOrGraphId, visible);
  if (changes.graph_id !== undefined && !deps.registry.has(changes.graph_id)) throw new NotFoundError(`Graph '${changes.graph_id}' not found`);
  return deps.assistants.update(assistant_id, changes);
}
