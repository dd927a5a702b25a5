import { decodeIngestLimits, effectiveLimits, encodeIngestLimits, limitOverridesFrom, limitsJson, retryAfterSeconds, TokenBuckets } from './index';

describe('TokenBuckets', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 0));

  it('admits a burst, then the sustained rate, and says when the next token comes', () => {
    const buckets = new TokenBuckets({ now: clock });
    const limit = { perSecond: 10, burst: 3 };
    expect([1, 2, 3].map(() => buckets.take('A', limit).ok)).toEqual([true, true, true]);
    expect(buckets.take('A', limit)).toEqual({ ok: false, retryAfterMs: 100 });
    now = 50;
    expect(buckets.take('A', limit)).toEqual({ ok: false, retryAfterMs: 50 });
    now = 100;
    expect(buckets.take('A', limit).ok).toBe(true);
    // Idle for long, the bucket holds no more than its burst.
    now = 60_000;
    expect([1, 2, 3, 4].map(() => buckets.take('A', limit).ok)).toEqual([true, true, true, false]);
  });

  it('keeps one bucket per key: one key spent leaves the others whole', () => {
    const buckets = new TokenBuckets({ now: clock });
    const limit = { perSecond: 1, burst: 2 };
    buckets.take('A', limit);
    buckets.take('A', limit);
    expect(buckets.take('A', limit).ok).toBe(false);
    expect(buckets.take('B', limit).ok).toBe(true);
    expect(buckets.take('B', limit).ok).toBe(true);
  });

  it('admits a cost above the burst once the bucket is full, leaving it in debt', () => {
    const buckets = new TokenBuckets({ now: clock });
    const limit = { perSecond: 100, burst: 100 };
    expect(buckets.take('A', limit, 250).ok).toBe(true);
    // 150 in debt: the next 100-token batch fits after 250 tokens' time.
    expect(buckets.take('A', limit, 100)).toEqual({ ok: false, retryAfterMs: 2500 });
    now = 2500;
    expect(buckets.take('A', limit, 100).ok).toBe(true);
  });

  it('treats a zero rate as no limit, and admits a zero cost unless the bucket is in debt', () => {
    const buckets = new TokenBuckets({ now: clock });
    for (let i = 0; i < 1000; i++) expect(buckets.take('A', { perSecond: 0, burst: 1 }).ok).toBe(true);
    const limit = { perSecond: 1, burst: 1 };
    buckets.take('B', limit);
    expect(buckets.take('B', limit, 0).ok).toBe(true);
    // A size known only afterwards is charged, in debt if need be; then even a zero cost waits.
    buckets.charge('B', limit, 3);
    expect(buckets.take('B', limit, 0)).toEqual({ ok: false, retryAfterMs: 3000 });
    now = 3000;
    expect(buckets.take('B', limit, 0).ok).toBe(true);
  });

  it("holds each replica's share of the limit", () => {
    const buckets = new TokenBuckets({ now: clock, replicas: 4 });
    const limit = { perSecond: 40, burst: 8 };
    expect([1, 2, 3].map(() => buckets.take('A', limit).ok)).toEqual([true, true, false]);
    now = 100; // 10 per second here: one token
    expect(buckets.take('A', limit).ok).toBe(true);
  });

  it('follows a changed limit and forgets the least recently used keys past maxKeys', () => {
    const buckets = new TokenBuckets({ now: clock, maxKeys: 2 });
    buckets.take('A', { perSecond: 1, burst: 5 });
    // Lowered: the bucket holds at most the new burst.
    expect(buckets.take('A', { perSecond: 1, burst: 1 }).ok).toBe(true);
    expect(buckets.take('A', { perSecond: 1, burst: 1 }).ok).toBe(false);
    buckets.take('B', { perSecond: 1, burst: 1 });
    buckets.take('C', { perSecond: 1, burst: 1 }); // A forgotten
    expect(buckets.take('A', { perSecond: 1, burst: 1 }).ok).toBe(true);
  });

  it('refunds tokens up to the capacity', () => {
    const buckets = new TokenBuckets({ now: clock });
    const limit = { perSecond: 1, burst: 2 };
    buckets.take('A', limit, 2);
    buckets.refund('A', limit, 5);
    expect(buckets.take('A', limit, 2).ok).toBe(true);
    expect(buckets.take('A', limit).ok).toBe(false);
  });
});

describe('ingest limits header', () => {
  it('round-trips and refuses anything else', () => {
    const limits = { ingestRuns: { perSecond: 500, burst: 1000 }, ingestBytes: { perSecond: 1.5, burst: 2 }, maxStoredRuns: 7 };
    expect(decodeIngestLimits(encodeIngestLimits(limits))).toEqual(limits);
    expect(decodeIngestLimits(undefined)).toBeUndefined();
    expect(decodeIngestLimits(['a', 'b'])).toBeUndefined();
    expect(decodeIngestLimits('runs=1/1; bytes=x/1; stored=0')).toBeUndefined();
    expect(decodeIngestLimits('runs=1/1; bytes=1/1')).toBeUndefined();
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});

describe('workspace limits', () => {
  const defaults = { requests: { perSecond: 10, burst: 20 }, ingestRuns: { perSecond: 1, burst: 2 }, ingestBytes: { perSecond: 3, burst: 4 }, maxStoredRuns: 0 };

  it("takes a workspace's own limits where set and the defaults elsewhere, in the admin API's shape", () => {
    const own = limitOverridesFrom({ requests_per_second: 2, max_stored_runs: 100, ingest_runs_burst: -1, other: 5, ingest_bytes_burst: '9' });
    expect(own).toEqual({ requests_per_second: 2, max_stored_runs: 100 });
    expect(limitsJson(effectiveLimits(defaults, own))).toEqual({
      requests_per_second: 2,
      requests_burst: 20,
      ingest_runs_per_second: 1,
      ingest_runs_burst: 2,
      ingest_bytes_per_second: 3,
      ingest_bytes_burst: 4,
      max_stored_runs: 100,
    });
    expect(limitOverridesFrom(null)).toEqual({});
  });
});
