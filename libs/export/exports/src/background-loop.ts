import type { Logger } from '@platform/logging';

export interface BackgroundLoop {
  /** Runs one pass now (waiting for a running one first); for tests and shutdown hooks. */
  runNow(): Promise<void>;
  /**
   * Asks for a pass soon, when something the pass acts on has just changed: now if none is running, else right
   * after the one in flight (which may have read the state before the change). Wakes that arrive while one is
   * still waiting share its pass. The interval starts again after it.
   */
  wake(): void;
  /** Stops scheduling passes and waits for the one in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (never two at once in this process; other replicas may run theirs, which the
 * passes are written to tolerate). A failing pass is logged and the loop goes on.
 */
export function startBackgroundLoop(name: string, intervalMs: number, pass: () => Promise<unknown>, logger: Logger): BackgroundLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let wakeWaiting = false;

  const runOnce = (): Promise<void> => {
    running = running.then(async () => {
      if (stopped) return;
      // Any pass that starts from here on sees what the waiting wake was for.
      wakeWaiting = false;
      try {
        await pass();
      } catch (err) {
        logger.error({ err, loop: name }, 'export background pass failed');
      }
    });
    return running;
  };
  // One timer at most: a wake's pass and the timer's both end by scheduling, and the later replaces the earlier.
  const schedule = () => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void runOnce().then(schedule), intervalMs);
    timer.unref?.();
  };
  schedule();

  return {
    runNow: runOnce,
    wake() {
      if (stopped || wakeWaiting) return;
      wakeWaiting = true;
      void runOnce().then(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
