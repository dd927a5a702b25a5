// The repository and its records are in the data-access lib; re-exported here, where their callers import them.
export {
  ASSISTANT_SORT_FIELDS,
  createAssistantRepository,
  SYSTEM_ASSISTANT_NAMESPACE,
  systemAssistantId,
  uuid5,
  type Assistant,
  type AssistantChanges,
  type AssistantFilter,
  type AssistantQuery,
  type AssistantRepository,
  type AssistantSortBy,
  type AssistantVersion,
  type NewAssistant,
  type SortOrder,
  type VersionQuery,
} from '@platform/agent-server-data-access';
export * from './assistant';
export type { AssistantsDeps } from './assistants.deps';
export { syncSystemAssistants } from './sync-system-assistants';
export { createAssistant, type CreateAssistantInput } from './create-assistant.usecase';
export { updateAssistant } from './update-assistant.usecase';
export { deleteAssistant, type DeleteAssistantDeps } from './delete-assistant.usecase';
export { searchAssistants } from './search-assistants.usecase';
export { listAssistantVersions, setLatestAssistantVersion } from './assistant-versions.usecase';
export { assistantRunnableConfig, getAssistantGraph, getAssistantSchemas, getAssistantStateKeys, getAssistantSubgraphs } from './assistant-graph.usecase';
