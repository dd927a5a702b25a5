/** Tracks running handlers against a concurrency limit, so a consumer only takes what it can run. */
export class InFlightPool {
  private readonly running = new Set<Promise<void>>();
  private waiters: Array<() => void> = [];

  constructor(
    readonly limit: number,
    private readonly onError: (err: unknown) => void,
    private readonly onFree?: () => void,
  ) {}

  get size(): number {
    return this.running.size;
  }

  get free(): number {
    return Math.max(0, this.limit - this.running.size);
  }

  /** Starts `task` in a slot; a rejection goes to `onError` so it never goes unhandled. */
  run(task: () => Promise<void>): void {
    const done = task()
      .catch(this.onError)
      .finally(() => {
        this.running.delete(done);
        this.wake();
        this.onFree?.();
      });
    this.running.add(done);
  }

  /** Resolves when a slot frees up or `wake()` is called (e.g. on stop). */
  waitForSlot(): Promise<void> {
    if (this.free > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve());
  }

  /** Resolves once every running task, including ones started meanwhile, has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
