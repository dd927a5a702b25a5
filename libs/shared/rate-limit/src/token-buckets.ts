/** A sustained rate and how far above it a burst may go. */
export interface RateLimit {
  /** Tokens (requests, runs, bytes) per second; 0 means no limit. */
  perSecond: number;
  /** The most tokens held at once (what an idle key may spend at once); at least 1. */
  burst: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

export interface TokenBucketsOptions {
  /** Milliseconds since some fixed point (tests move it); default `performance.now`. */
  now?: () => number;
  /** Replicas enforcing the same limit: each holds its share (`perSecond / replicas`, `burst / replicas`). */
  replicas?: number;
  /** Keys tracked at once; past it the least recently used are forgotten (they come back with a full bucket). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key, in this process's memory. A cost above what the bucket holds is admitted once the
 * bucket is full and leaves it in debt (a batch larger than the burst is slowed, never refused forever); the
 * answer to a refusal says when the cost will fit.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly replicas: number;
  private readonly maxKeys: number;

  constructor(options: TokenBucketsOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.replicas = Math.max(1, options.replicas ?? 1);
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /**
   * Takes `cost` tokens from `key`'s bucket when they are there. A cost of 0 (a size not known yet, to be
   * `charge`d once known) is admitted unless the bucket is in debt.
   */
  take(key: string, limit: RateLimit, cost = 1): Admission {
    if (!(limit.perSecond > 0) || cost < 0) return { ok: true };
    const rate = limit.perSecond / this.replicas / 1000;
    const capacity = Math.max(1, limit.burst / this.replicas);
    const now = this.now();
    const bucket = this.buckets.get(key);
    let tokens = capacity;
    if (bucket) {
      tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * rate);
      this.buckets.delete(key); // re-inserted below: Map order is least recently used first
    } else if (this.buckets.size >= this.maxKeys) {
      this.buckets.delete(this.buckets.keys().next().value as string);
    }
    const needed = Math.min(cost, capacity);
    if (tokens + 1e-9 < needed) {
      this.buckets.set(key, { tokens, at: now });
      return { ok: false, retryAfterMs: Math.ceil((needed - tokens) / rate) };
    }
    this.buckets.set(key, { tokens: tokens - cost, at: now });
    return { ok: true };
  }

  /** Takes `cost` tokens whether or not they are there (a cost known only afterwards): the bucket may go into debt. */
  charge(key: string, limit: RateLimit, cost: number): void {
    if (!(limit.perSecond > 0) || cost <= 0) return;
    this.take(key, limit, 0);
    const bucket = this.buckets.get(key) as Bucket;
    bucket.tokens -= cost;
  }

  /** Puts back tokens taken for something that was then refused elsewhere (never above the bucket's capacity). */
  refund(key: string, limit: RateLimit, cost: number): void {
    const bucket = this.buckets.get(key);
    if (!bucket || !(limit.perSecond > 0)) return;
    bucket.tokens = Math.min(Math.max(1, limit.burst / this.replicas), bucket.tokens + cost);
  }
}
