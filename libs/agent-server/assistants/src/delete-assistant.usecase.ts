import type { AccessFilter } from '@platform/agent-server-auth';
import type { AssistantRepository } from '@platform/agent-server-data-access';

export interface DeleteAssistantDeps {
  assistants: AssistantRepository;
  /** Deletes the threads whose `metadata.assistant_id` is the assistant's (for `delete_threads=true`), those `visible` lets through. */
  deleteThreadsOf?: (assistantId: string, visible?: AccessFilter) => Promise<number>;
}

/** `DELETE /assistants/{id}`: the assistant with its versions and, when asked, its threads. */
export async function deleteAssistant(
  deps: DeleteAssistantDeps,
  assistantIdOrGraphId: string,
  options: { deleteThreads?: boolean; visible?: AccessFilter; threadsVisible?: AccessFilter } = {},
): Promise<void> {
  const { assistant_id } = await deps.assistants.resolve(assistantIdOrGraphId, options.visible);
  await deps.assistants.delete(assistant_id);
  if (options.deleteThreads && deps.deleteThreadsOf) await deps.deleteThreadsOf(assistant_id, options.threadsVisible);
}
