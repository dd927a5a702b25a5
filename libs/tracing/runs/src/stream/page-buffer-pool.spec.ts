import { PageBufferPool, PageLease } from './page-buffer-pool';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PageBufferPool', () => {
  it('hands out the smallest idle buffer that fits, or a new one rounded up', () => {
    const pool = new PageBufferPool();
    const [small, large] = [pool.take(100_000), pool.take(3_000_000)];
    expect([small.length, large.length]).toEqual([128 * 1024, 3 * 1024 * 1024]);
    pool.give(large);
    pool.give(small);
    expect(pool.take(50_000)).toBe(small);
    expect(pool.take(2_000_000)).toBe(large);
    expect(pool.size).toBe(0);
    const fresh = pool.take(2_000_000);
    expect(fresh).not.toBe(large);
  });

  it('keeps at most its idle bytes, and drops them once none was taken for a while', async () => {
    const pool = new PageBufferPool({ maxIdleBytes: 3 * 1024 * 1024, idleMs: 50 });
    const buffers = [pool.take(1 << 20), pool.take(1 << 20), pool.take(1 << 20), pool.take(1 << 20)];
    for (const buffer of buffers) pool.give(buffer);
    expect(pool.size).toBe(3);
    await sleep(20);
    pool.give(pool.take(1 << 20)); // taken within the idle time: kept
    await sleep(40);
    expect(pool.size).toBe(3);
    await sleep(60);
    expect(pool.size).toBe(0);
  });
});

describe('PageLease', () => {
  it('gives its buffers back once its own hold and every other are released, and not before', () => {
    const pool = new PageBufferPool();
    const buffers = [pool.take(1000), pool.take(1 << 20)];
    const lease = new PageLease(pool, buffers);
    lease.hold();
    lease.hold();
    lease.release();
    lease.release();
    expect(pool.size).toBe(0);
    lease.release();
    expect(pool.size).toBe(2);
    expect(() => lease.release()).toThrow('released more often than held');
    expect(() => lease.hold()).toThrow('after its buffers went back');
  });
});
