/** A counting semaphore whose waiters give up when their signal aborts. */
export class Semaphore {
  private readonly waiters: (() => void)[] = [];

  constructor(private available: number) {}

  async acquire(signal: AbortSignal): Promise<() => void> {
    while (this.available === 0) {
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          this.waiters.splice(this.waiters.indexOf(wake), 1);
          reject(signal.reason);
        };
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiters.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.available--;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.available++;
      this.waiters.shift()?.();
    };
  }
}
