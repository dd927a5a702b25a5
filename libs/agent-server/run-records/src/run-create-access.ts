import { metadataIn, type Access, type AccessFilter } from '@platform/agent-server-auth';
import type { MultitaskStrategy, RunKwargs } from './run';
import type { RunCreateRequest } from './run-request.schema';

/** What the deployment's auth decided about a new run. */
export interface RunCreateAccess {
  /** The filter the run's thread must pass. */
  visible?: AccessFilter;
  /** The run's metadata as the handler left it (stamped with an owner, say); also given to a thread the run creates. */
  metadata: Record<string, unknown>;
}

/**
 * `threads:create_run`, with the value LangGraph gives its handlers (`RunsCreate`): the handler may refuse the run,
 * filter its thread and change its metadata (and kwargs, in place).
 */
export async function authorizeRunCreate(
  access: Access,
  run: { threadId: string | null; assistantId: string; runId: string; multitaskStrategy: MultitaskStrategy; kwargs: RunKwargs },
  request: RunCreateRequest,
): Promise<RunCreateAccess> {
  const value: Record<string, unknown> = {
    thread_id: run.threadId ?? undefined,
    assistant_id: run.assistantId,
    run_id: run.runId,
    status: 'pending',
    metadata: { ...request.metadata },
    prevent_insert_if_inflight: run.multitaskStrategy === 'reject',
    multitask_strategy: run.multitaskStrategy,
    if_not_exists: request.if_not_exists ?? 'reject',
    after_seconds: request.after_seconds ?? 0,
    kwargs: run.kwargs,
  };
  const visible = await access.authorize('threads:create_run', value);
  return { visible, metadata: metadataIn(value) ?? {} };
}
