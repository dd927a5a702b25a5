import type { AccessFilter } from '@platform/agent-server-auth';
import type { ThreadRepository } from '@platform/agent-server-data-access';
import type { ThreadStateService } from './thread-state.service';

export type PruneStrategy = 'delete' | 'keep_latest';

/**
 * `POST /threads/prune`: `delete` removes the threads with everything under them; `keep_latest` keeps each
 * thread and its latest state but drops older checkpoints. Unknown ids (and threads `visible` hides) are skipped;
 * returns how many threads were pruned.
 */
export async function pruneThreads(
  deps: { threads: ThreadRepository; state: ThreadStateService },
  input: { threadIds: string[]; strategy: PruneStrategy },
  visible?: AccessFilter,
): Promise<number> {
  const ids = [...new Set(input.threadIds.map((id) => id.toLowerCase()))];
  if (input.strategy === 'delete') return deps.threads.deleteMany(ids, visible);
  let pruned = 0;
  for (const threadId of ids) {
    if (!(await deps.threads.find(threadId, visible))) continue;
    await deps.state.keepLatestCheckpoints(threadId);
    pruned += 1;
  }
  return pruned;
}
