/**
 * How a thread stream waits for its thread to change: until the stream hub's thread watch calls `wake`, `idleMs`
 * passes (a missed wake-up, or a thread deleted meanwhile, is noticed by the check that follows), or the stream
 * is aborted.
 */
export class ThreadWake {
  private pending: (() => void) | undefined;

  constructor(private readonly idleMs: number) {}

  /** Ends the wait in progress, if any. */
  readonly wake = (): void => this.pending?.();

  async idle(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      this.pending = resolve;
      setTimeout(resolve, this.idleMs).unref();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.pending = undefined;
  }
}
