import { TooManyRequestsError } from '@platform/errors';

export interface FairWriteQueueOptions {
  /** Tasks run at once by this process, whatever their workspace (each write holds a database connection). */
  maxConcurrent: number;
  /** Tasks one workspace may have waiting here; one more is refused with 429 (backpressure, not memory growth). */
  maxQueuedPerKey?: number;
}

/**
 * At most `maxConcurrent` tasks at once, shared fairly between keys (workspaces): each key waits in its own
 * first-come queue and a freed slot goes to the next key in turn (round robin), so a key's queued task waits
 * behind at most one task of each other key, never behind another key's whole backlog. A key alone may use
 * every slot.
 */
export class FairWriteQueue {
  private running = 0;
  private readonly queues = new Map<string, (() => void)[]>();
  /** Keys with waiting tasks, in the order they take the next free slots. */
  private readonly turn: string[] = [];

  constructor(private readonly options: FairWriteQueueOptions) {
    if (!(options.maxConcurrent >= 1)) throw new Error('maxConcurrent must be at least 1');
  }

  /** Tasks of `key` waiting for a slot. */
  queued(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.running < this.options.maxConcurrent && this.turn.length === 0) this.running++;
    else await this.wait(key);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private wait(key: string): Promise<void> {
    let queue = this.queues.get(key);
    const max = this.options.maxQueuedPerKey ?? Infinity;
    if ((queue?.length ?? 0) >= max) {
      throw new TooManyRequestsError(`Too many ingest writes of this workspace waiting (${max}); retry shortly`, { retryAfterSeconds: 1 });
    }
    if (!queue) {
      queue = [];
      this.queues.set(key, queue);
      this.turn.push(key);
    }
    const waiting = queue;
    return new Promise<void>((resolve) => waiting.push(resolve));
  }

  /** Hands the slot to the first task of the key whose turn it is (running stays the same), or frees it. */
  private release(): void {
    const key = this.turn.shift();
    if (key === undefined) {
      this.running--;
      return;
    }
    const queue = this.queues.get(key) as (() => void)[];
    const next = queue.shift() as () => void;
    if (queue.length) this.turn.push(key);
    else this.queues.delete(key);
    next();
  }
}
