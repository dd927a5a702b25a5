import type { Logger } from '@platform/logging';

type Hook = { name: string; run: () => Promise<void> | void };

/**
 * Shutdown hooks, run in reverse order of registration (listeners stop before the clients they use).
 * Each resource that opens a connection registers one.
 */
export class Lifecycle {
  private readonly hooks: Hook[] = [];
  private stopping?: Promise<void>;

  constructor(private readonly logger: Logger) {}

  onShutdown(name: string, run: Hook['run']): void {
    this.hooks.push({ name, run });
  }

  shutdown(reason = 'shutdown'): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.info({ reason }, 'shutting down');
      for (const hook of [...this.hooks].reverse()) {
        try {
          await hook.run();
        } catch (err) {
          this.logger.error({ err, hook: hook.name }, 'shutdown hook failed');
        }
      }
      this.logger.info('stopped');
    })();
    return this.stopping;
  }
}
