import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { AssistantRepository } from './assistants.repository';

/** What the assistants use cases work with. */
export interface AssistantsDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
}
