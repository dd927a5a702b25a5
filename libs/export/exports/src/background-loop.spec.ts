import { createLogger } from '@platform/logging';
import { Writable } from 'node:stream';
import { startBackgroundLoop, type BackgroundLoop } from './background-loop';

const logger = createLogger({ service: 'test', level: 'error', destination: new Writable({ write: (_c, _e, done) => done() }) });
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A pass the test finishes by hand, recording when each one starts. */
function manualPass() {
  const started: number[] = [];
  const finishers: Array<() => void> = [];
  return {
    started,
    pass: () =>
      new Promise<void>((resolve) => {
        started.push(started.length);
        finishers.push(resolve);
      }),
    finishNext: async () => {
      finishers.shift()?.();
      await tick();
    },
  };
}

describe('startBackgroundLoop', () => {
  let loop: BackgroundLoop | undefined;
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
  });

  it('runs a pass every interval', async () => {
    let passes = 0;
    loop = startBackgroundLoop('t', 20, async () => void passes++, logger);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(passes).toBeGreaterThanOrEqual(2);
  });

  it('wake runs a pass at once instead of at the next interval', async () => {
    const p = manualPass();
    loop = startBackgroundLoop('t', 3_600_000, p.pass, logger);
    loop.wake();
    await tick();
    expect(p.started).toHaveLength(1);
    await p.finishNext();
  });

  it('wakes during a pass run one more pass after it; wakes while that one waits share it', async () => {
    const p = manualPass();
    loop = startBackgroundLoop('t', 3_600_000, p.pass, logger);
    loop.wake();
    await tick();
    loop.wake();
    loop.wake();
    loop.wake();
    await tick();
    expect(p.started).toHaveLength(1);
    await p.finishNext();
    expect(p.started).toHaveLength(2);
    await p.finishNext();
    await tick();
    expect(p.started).toHaveLength(2);
    // Once a pass has started, the next wake is new work again.
    loop.wake();
    await tick();
    expect(p.started).toHaveLength(3);
    await p.finishNext();
  });

  it('keeps one interval timer however many wakes came, and a failing pass does not stop the loop', async () => {
    let passes = 0;
    loop = startBackgroundLoop(
      't',
      40,
      async () => {
        passes++;
        if (passes === 1) throw new Error('boom');
      },
      logger,
    );
    for (let i = 0; i < 5; i++) {
      loop.wake();
      await tick();
    }
    const afterWakes = passes;
    await new Promise((resolve) => setTimeout(resolve, 400));
    // At most ~10 interval passes in 400 ms with one timer; six timers (one per wake, plus the first) would run ~60.
    expect(passes - afterWakes).toBeGreaterThanOrEqual(2);
    expect(passes - afterWakes).toBeLessThanOrEqual(11);
  });

  it('does nothing once stopped', async () => {
    let passes = 0;
    loop = startBackgroundLoop('t', 10, async () => void passes++, logger);
    await loop.stop();
    const atStop = passes;
    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passes).toBe(atStop);
  });
});
