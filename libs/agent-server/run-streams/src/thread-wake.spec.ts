import { ThreadWake } from './thread-wake';

describe('ThreadWake', () => {
  it('ends a wait when woken, and a wake with no wait in progress is lost, not kept for the next one', async () => {
    const waiter = new ThreadWake(60_000);
    waiter.wake();
    const started = Date.now();
    const waiting = waiter.idle(new AbortController().signal);
    setTimeout(waiter.wake, 20);
    await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends a wait after its idle time, or at once when the stream is aborted', async () => {
    const started = Date.now();
    await new ThreadWake(30).idle(new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);

    const abort = new AbortController();
    const waiting = new ThreadWake(60_000).idle(abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
