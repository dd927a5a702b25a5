import type { Logger } from '@platform/logging';

export interface BackgroundLoop {
  /** Runs one pass now (waiting for a running one first); for tests and shutdown hooks. */
  runNow(): Promise<void>;
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

  const runOnce = (): Promise<void> => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await pass();
      } catch (err) {
        logger.error({ err, loop: name }, 'export background pass failed');
      }
    });
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void runOnce().then(schedule), intervalMs);
    timer.unref?.();
  };
  schedule();

  return {
    runNow: runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
