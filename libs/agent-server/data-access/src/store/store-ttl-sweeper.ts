import type { Logger } from '@platform/logging';
import type { PrismaStore } from './prisma-store';

export interface StoreTtlSweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Deletes expired store items every `intervalMs` (langgraph.json `store.ttl.sweep_interval_minutes`). Every
 * replica may run one: the deletes skip rows another replica holds.
 */
export function startStoreTtlSweeper(store: PrismaStore, options: { intervalMs: number; logger: Logger }): StoreTtlSweeper {
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = store
      .sweepExpired()
      .then((deleted) => {
        if (deleted > 0) options.logger.debug({ deleted }, 'expired store items deleted');
      })
      .catch((err: unknown) => options.logger.warn({ err }, 'sweeping expired store items failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
