import { TooManyRequestsError } from '@platform/errors';
import { FairWriteQueue } from './fair-write-queue';

/** A task that runs until released, recording when it started. */
function gate(started: string[], name: string) {
  let open!: () => void;
  const released = new Promise<void>((resolve) => (open = resolve));
  return { task: async () => { started.push(name); await released; return name; }, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairWriteQueue', () => {
  it('runs at most maxConcurrent tasks; a key alone uses every slot, first come first served', async () => {
    const queue = new FairWriteQueue({ maxConcurrent: 2 });
    const started: string[] = [];
    const gates = ['a1', 'a2', 'a3', 'a4'].map((n) => gate(started, n));
    const results = gates.map((g) => queue.run('A', g.task));
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    expect(queue.queued('A')).toBe(2);
    gates[1].open();
    await settle();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    for (const g of gates) g.open();
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(queue.queued('A')).toBe(0);
  });

  it("gives a late key's task the next free slot instead of queueing it behind another key's backlog", async () => {
    const queue = new FairWriteQueue({ maxConcurrent: 2 });
    const started: string[] = [];
    const a = Array.from({ length: 10 }, (_, i) => gate(started, `a${i}`));
    const aDone = a.map((g) => queue.run('A', g.task));
    await settle();
    const b = [gate(started, 'b0'), gate(started, 'b1')];
    const bDone = b.map((g) => queue.run('B', g.task));
    await settle();
    expect(started).toEqual(['a0', 'a1']);
    // A's third task had its turn before B arrived; the slot after it is B's, then A and B alternate.
    a[0].open();
    await settle();
    expect(started.slice(2)).toEqual(['a2']);
    a[1].open();
    await settle();
    expect(started.slice(3)).toEqual(['b0']);
    a[2].open();
    await settle();
    expect(started.slice(4)).toEqual(['a3']);
    b[0].open();
    await settle();
    expect(started.slice(5)).toEqual(['b1']);
    for (const g of [...a, ...b]) g.open();
    await Promise.all([...aDone, ...bDone]);
    expect(started).toHaveLength(12);
  });

  it('frees the slot of a failed task and passes its error on', async () => {
    const queue = new FairWriteQueue({ maxConcurrent: 1 });
    const failed = queue.run('A', async () => { throw new Error('write failed'); });
    const next = queue.run('B', async () => 'b');
    await expect(failed).rejects.toThrow('write failed');
    await expect(next).resolves.toBe('b');
  });

  it('refuses a task past maxQueuedPerKey with a 429 that says when to retry, other keys still queue', async () => {
    const queue = new FairWriteQueue({ maxConcurrent: 1, maxQueuedPerKey: 1 });
    const started: string[] = [];
    const running = gate(started, 'a0');
    const first = queue.run('A', running.task);
    const queued = queue.run('A', async () => 'a1');
    const refused = queue.run('A', async () => 'a2');
    await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 1 });
    const other = queue.run('B', async () => 'b0');
    running.open();
    await expect(Promise.all([first, queued, other])).resolves.toEqual(['a0', 'a1', 'b0']);
  });
});
