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

  /**
   * Starts a service: `start` opens its resources through the lifecycle; if it throws, whatever it had opened is
   * shut down before the error propagates. The result gains `stop()`.
   */
  static async start<T extends object>(logger: Logger, start: (lifecycle: Lifecycle) => Promise<T>): Promise<T & { stop(): Promise<void> }> {
    const lifecycle = new Lifecycle(logger);
    try {
      const started = await start(lifecycle);
      return Object.assign(started, { stop: () => lifecycle.shutdown() });
    } catch (err) {
      await lifecycle.shutdown('start failed');
      throw err;
    }
  }

  onShutdown(name: string, run: Hook['run']): void {
    this.hooks.push({ name, run });
  }

  /** Awaits a resource (connection, server, client) and registers how to close it. */
  async use<R>(name: string, resource: Promise<R> | R, close: (resource: R) => Promise<unknown> | unknown): Promise<R> {
    const opened = await resource;
    this.onShutdown(name, async () => {
      await close(opened);
    });
    return opened;
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
