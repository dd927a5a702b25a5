import type { AssistantRepository } from '@platform/agent-server-data-access';
import type { GraphRegistry } from '@platform/agent-server-graphs';

/** What the assistants use cases work with. */
export interface AssistantsDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
}
