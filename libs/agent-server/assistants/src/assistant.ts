import type { Assistant } from '@platform/agent-server-data-access';

export const ASSISTANT_FIELDS = [
  'assistant_id',
  'graph_id',
  'name',
  'description',
  'config',
  'context',
  'created_at',
  'updated_at',
  'metadata',
  'version',
] as const satisfies readonly (keyof Assistant)[];
export type AssistantField = (typeof ASSISTANT_FIELDS)[number];

/** The assistant with only the fields asked for (`select`), or whole when none are. */
export function selectAssistantFields(assistant: Assistant, select?: readonly AssistantField[]): Partial<Assistant> {
  if (!select?.length) return assistant;
  return Object.fromEntries(select.map((field) => [field, assistant[field]]));
}
