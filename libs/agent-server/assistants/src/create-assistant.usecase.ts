import { randomUUID } from 'node:crypto';
import type { AccessFilter } from '@platform/agent-server-auth';
import type { Assistant } from '@platform/agent-server-data-access';
import { ConflictError, NotFoundError } from '@platform/errors';
import type { AssistantsDeps } from './assistants.deps';

export interface CreateAssistantInput {
  assistant_id?: string;
  graph_id: string;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  name?: string;
  description?: string | null;
  /** What a taken `assistant_id` does: `raise` (409, the default) or `do_nothing` (returns the existing one). */
  if_exists?: 'raise' | 'do_nothing';
}

/**
 * `POST /assistants`: a new assistant (version 1) for a graph of this deployment. An existing one returned by
 * `do_nothing` must be `visible` to the caller.
 */
export async function createAssistant(deps: AssistantsDeps, input: CreateAssistantInput, visible?: AccessFilter): Promise<Assistant> {
  if (!deps.registry.has(input.graph_id)) throw new NotFoundError(`Graph '${input.graph_id}' not found`);
  const assistantId = input.assistant_id ?? randomUUID();
  const { assistant, created } = await deps.assistants.insert(
    {
      assistant_id: assistantId,
      graph_id: input.graph_id,
      name: input.name ?? 'Untitled',
      description: input.description ?? null,
      config: input.config ?? {},
      context: input.context ?? {},
      metadata: input.metadata ?? {},
    },
    visible,
  );
  if (!created && (input.if_exists ?? 'raise') === 'raise') throw new ConflictError('Assistant already exists');
  return assistant;
}
