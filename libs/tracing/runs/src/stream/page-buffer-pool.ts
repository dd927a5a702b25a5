/** Limits of a {@link PageBufferPool}'s idle buffers. */
export interface PageBufferPoolOptions {
  /** Idle bytes kept for reuse at most; a buffer given back past it is left to the GC. */
  maxIdleBytes?: number;
  /** Idle buffers are dropped once none has been taken for this long. */
  idleMs?: number;
}

// New buffers are rounded up (to 64 KiB, past 1 MiB to 1 MiB), so that pages of about the same size fit each other's.
function roundedSize(bytes: number): number {
  const step = bytes > 1024 * 1024 ? 1024 * 1024 : 64 * 1024;
  return Math.ceil(Math.max(1, bytes) / step) * step;
}

/**
 * Large buffers (NDJSON pages) for reuse. Each fresh buffer is external memory to V8, and many of them (a 4 MB page
 * per batch) bring on full garbage collections to free them; reused ones do not. The pool holds only idle buffers:
 * one taken and never given back is collected as any other.
 */
export class PageBufferPool {
  private readonly idle: Buffer[] = [];
  private idleBytes = 0;
  private lastTaken = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxIdleBytes: number;
  private readonly idleMs: number;

  constructor(options: PageBufferPoolOptions = {}) {
    this.maxIdleBytes = options.maxIdleBytes ?? 64 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** Idle buffers held now. */
  get size(): number {
    return this.idle.length;
  }

  /** A buffer of at least `bytes` (its contents are not zeroed): the smallest idle one that fits, or a new one. */
  take(bytes: number): Buffer {
    this.lastTaken = Date.now();
    let best = -1;
    for (let i = 0; i < this.idle.length; i++) {
      const length = this.idle[i].length;
      if (length >= bytes && (best < 0 || length < this.idle[best].length)) best = i;
    }
    if (best < 0) return Buffer.allocUnsafeSlow(roundedSize(bytes));
    const [buffer] = this.idle.splice(best, 1);
    this.idleBytes -= buffer.length;
    return buffer;
  }

  /** Gives back a buffer from `take` that nothing reads any more. */
  give(buffer: Buffer): void {
    if (this.idleBytes + buffer.length > this.maxIdleBytes) return;
    this.idle.push(buffer);
    this.idleBytes += buffer.length;
    this.timer ??= setTimeout(() => this.dropIdle(), this.idleMs).unref();
  }

  private dropIdle(): void {
    this.timer = undefined;
    const quiet = Date.now() - this.lastTaken;
    if (quiet >= this.idleMs) {
      this.idle.length = 0;
      this.idleBytes = 0;
    } else if (this.idle.length > 0) {
      this.timer = setTimeout(() => this.dropIdle(), this.idleMs - quiet).unref();
    }
  }
}

/**
 * The hold on a page's pooled buffers: the page's own, plus one per batch that views them. They go back to the pool
 * when the last is released, and never before.
 */
export class PageLease {
  private holds = 1;

  constructor(
    private readonly pool: PageBufferPool,
    private readonly buffers: readonly Buffer[],
  ) {}

  hold(): void {
    if (this.holds <= 0) throw new Error('page lease: held after its buffers went back to the pool');
    this.holds++;
  }

  release(): void {
    if (this.holds <= 0) throw new Error('page lease: released more often than held');
    if (--this.holds > 0) return;
    for (const buffer of this.buffers) this.pool.give(buffer);
  }
}
