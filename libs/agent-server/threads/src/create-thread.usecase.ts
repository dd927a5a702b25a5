import type { AccessFilter } from '@platform/agent-server-auth';
import type { NewThread, Thread, ThreadRepository } from '@platform/agent-server-data-access';
import { InputError } from '@platform/errors';
import { graphIdOf } from './thread';
import type { Superstep, ThreadStateService } from './thread-state.service';

export interface CreateThreadInput extends NewThread {
  /** State to start from, applied with the graph named by `metadata.graph_id`. */
  supersteps?: Superstep[] | null;
}

/**
 * `POST /threads`: creates the thread and applies its supersteps. An existing thread returned by `do_nothing`
 * is left as it is (and must be `visible` to the caller); supersteps that fail leave no thread behind.
 */
export async function createThread(
  deps: { threads: ThreadRepository; state: ThreadStateService },
  input: CreateThreadInput,
  visible?: AccessFilter,
): Promise<Thread> {
  const supersteps = input.supersteps ?? [];
  if (supersteps.length > 0 && !graphIdOf({ metadata: input.metadata ?? {} })) {
    throw new InputError('supersteps need a graph: pass metadata.graph_id (graphId in the SDK)');
  }
  const { thread, created } = await deps.threads.insert(input, visible);
  if (!created || supersteps.length === 0) return thread;
  try {
    await deps.state.applySupersteps(thread.thread_id, supersteps);
  } catch (err) {
    await deps.threads.delete(thread.thread_id);
    throw err;
  }
  return deps.threads.get(thread.thread_id);
}
