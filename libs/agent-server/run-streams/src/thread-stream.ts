import type { StoredEvent, RunPosition, RunRepository } from '@platform/agent-server-run-records';
import type { RunStreamHub, SubscribeFrom } from './run-stream-hub';
import { ThreadWake } from './thread-wake';

/** One event of a thread's stream: an event of one of its runs. */
export interface ThreadStreamEvent {
  runId: string;
  event: StoredEvent;
}

/** Where a thread stream starts: after an event of one of its runs, or with what happens next (`live`). */
export type ThreadStreamFrom = { runId: string; seq: number } | 'live';

// Without any signal (one was missed, or the thread went quiet), look again this often.
const IDLE_CHECK_MS = 10_000;

/**
 * The events of a thread's runs, run after run in arrival order, for as long as the caller reads (until `signal`
 * aborts, the thread is deleted or the server stops). `live` starts with the next event of the run in flight, if any; later runs are
 * streamed from their first event. The hub wakes the stream whenever a run of the thread shows activity.
 */
export async function* threadStream(
  deps: { runs: RunRepository; hub: RunStreamHub },
  threadId: string,
  from: ThreadStreamFrom,
  signal: AbortSignal,
): AsyncGenerator<ThreadStreamEvent> {
  let active = false;
  const waiter = new ThreadWake(IDLE_CHECK_MS);
  const unwatch = deps.hub.watchThread(threadId, () => {
    active = true;
    waiter.wake();
  });
  try {
    let next: { runId: string; from: SubscribeFrom } | null;
    let after: RunPosition | null;
    if (from === 'live') {
      const current = await deps.runs.currentRun(threadId);
      next = current ? { runId: current.run_id, from: 'live' } : null;
      after = current ?? (await deps.runs.latestRun(threadId));
    } else {
      next = { runId: from.runId, from: from.seq };
      after = null;
    }
    while (!signal.aborted && !deps.hub.stopped) {
      if (next) {
        const { runId } = next;
        const subscription = await deps.hub.subscribe(runId, next.from);
        const stop = () => subscription.close();
        signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const event of subscription) yield { runId, event };
        } finally {
          signal.removeEventListener('abort', stop);
        }
        after = (await deps.runs.position(runId)) ?? after;
        next = null;
        continue;
      }
      active = false;
      const upcoming = await deps.runs.nextRun(threadId, after);
      if (upcoming) {
        next = { runId: upcoming.run_id, from: -1 };
        continue;
      }
      if (!active) {
        await waiter.idle(signal);
        if (!active && !(await deps.runs.threadExists(threadId))) return;
      }
    }
  } finally {
    unwatch();
  }
}
