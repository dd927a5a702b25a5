import { RunProtocolEvents, type ProtocolEvent } from './protocol-events';
import { decodeSeq } from './protocol-seq';
import type { RunOrdinals } from './run-ordinals.repository';
import { type RunStreamHub, ThreadWake } from '@platform/agent-server-run-streams';
import type { RunPosition, RunRepository } from '@platform/agent-server-run-records';

// Without any signal (one was missed, or the thread went quiet), look again this often.
const IDLE_CHECK_MS = 10_000;

export interface ProtocolStreamDeps {
  runs: RunRepository;
  hub: RunStreamHub;
  ordinals: RunOrdinals;
}

/**
 * The protocol events of a thread's runs, run after run, for as long as the caller reads (until `signal` aborts,
 * the thread is deleted or the server stops). Without `since` it starts at the first event of the run in flight
 * (else the latest run); with `since`, after that seq. A run's events are always made from its first stored event,
 * so messages assemble the same way whichever replica serves the reconnect; those up to `since` are skipped.
 */
export async function* protocolThreadStream(deps: ProtocolStreamDeps, threadId: string, since: number | undefined, signal: AbortSignal): AsyncGenerator<ProtocolEvent> {
  let active = false;
  const waiter = new ThreadWake(IDLE_CHECK_MS);
  const unwatch = deps.hub.watchThread(threadId, () => {
    active = true;
    waiter.wake();
  });
  const fresh = (event: ProtocolEvent) => since === undefined || event.seq > since;
  try {
    let next: RunPosition | null;
    let after: RunPosition | null = null;
    if (since !== undefined) {
      next = await deps.ordinals.at(threadId, decodeSeq(since).ordinal);
      if (!next) after = await deps.runs.latestRun(threadId);
    } else {
      next = (await deps.runs.currentRun(threadId)) ?? (await deps.runs.latestRun(threadId));
    }
    while (!signal.aborted && !deps.hub.stopped) {
      if (next) {
        const { run_id: runId } = next;
        const { ordinal, graphId } = await deps.ordinals.of(threadId, runId);
        const events = new RunProtocolEvents(ordinal, graphId);
        const subscription = await deps.hub.subscribe(runId, -1);
        const stop = () => subscription.close();
        signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const stored of subscription) for (const event of events.convert(stored)) if (fresh(event)) yield event;
        } finally {
          signal.removeEventListener('abort', stop);
        }
        if (signal.aborted || deps.hub.stopped) return;
        for (const event of events.end(await deps.runs.end(runId))) if (fresh(event)) yield event;
        after = (await deps.runs.position(runId)) ?? after ?? next;
        next = null;
        continue;
      }
      active = false;
      next = await deps.runs.nextRun(threadId, after);
      if (next) continue;
      if (!active) {
        await waiter.idle(signal);
        if (!active && !signal.aborted && !(await deps.runs.threadExists(threadId))) return;
      }
    }
  } finally {
    unwatch();
  }
}

/**
 * A stream on a thread that does not exist yet stays open and idle, as LangGraph's API server has it (a client may
 * open its streams before the `run.start` that creates the thread): once the thread exists, it streams as above if
 * the caller may read the thread, and ends otherwise.
 */
export async function* protocolStreamOnceCreated(
  deps: ProtocolStreamDeps,
  threadId: string,
  since: number | undefined,
  signal: AbortSignal,
  visible: (threadId: string) => Promise<boolean>,
): AsyncGenerator<ProtocolEvent> {
  const waiter = new ThreadWake(IDLE_CHECK_MS);
  const unwatch = deps.hub.watchThread(threadId, waiter.wake);
  try {
    while (!signal.aborted && !deps.hub.stopped && !(await deps.runs.threadExists(threadId))) {
      await waiter.idle(signal);
    }
  } finally {
    unwatch();
  }
  if (signal.aborted || deps.hub.stopped || !(await visible(threadId))) return;
  yield* protocolThreadStream(deps, threadId, since, signal);
}
