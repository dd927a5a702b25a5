import type { AccessFilter } from '@platform/agent-server-auth';
import type { ThreadRepository } from '@platform/agent-server-threads';

const PAGE = 100;

/**
 * `DELETE /assistants/{id}?delete_threads=true`: deletes the threads whose `metadata.assistant_id` is the
 * assistant's, a page at a time (each page with its runs and checkpoints, through the threads repository), only
 * those the caller's filter (the deployment's auth) lets through.
 */
export function assistantThreadsDeleter(threads: Pick<ThreadRepository, 'search' | 'deleteMany'>) {
  return async (assistantId: string, visible?: AccessFilter): Promise<number> => {
    let deleted = 0;
    for (;;) {
      const page = await threads.search({ metadata: { assistant_id: assistantId }, limit: PAGE, offset: 0 }, visible);
      if (page.length === 0) return deleted;
      const count = await threads.deleteMany(page.map((thread) => thread.thread_id), visible);
      deleted += count;
      // Stop on a page none of which could be deleted: searching again would only find the same threads.
      if (page.length < PAGE || count === 0) return deleted;
    }
  };
}
