import { DurableConflictError } from '../../lib/job-bus.errors';
import { sleep, waitFor } from '../async.testing';
import type { ContractContext } from '../job-bus.contract';

/** Competing consumers, one durable per queue, the concurrency limit, stop() and readiness. */
export function scalingCases(ctx: ContractContext): void {
  it('splits the work between consumers on one durable, processing nothing twice', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    const handledBy = new Map<number, string[]>();
    const handler = (name: string) => async (job: { data: { n: number } }) => {
      handledBy.set(job.data.n, [...(handledBy.get(job.data.n) ?? []), name]);
      await sleep(20);
    };
    await bus.consume(queue, handler('a'), { durable: 'workers', concurrency: 2 });
    await bus.consume(queue, handler('b'), { durable: 'workers', concurrency: 2 });
    for (let n = 0; n < 20; n++) await bus.publish(queue, { n });

    await waitFor('all 20 jobs', () => handledBy.size === 20);
    await sleep(300);
    const all = [...handledBy.values()];
    expect(all.every((names) => names.length === 1)).toBe(true);
    expect(all.filter(([name]) => name === 'a').length).toBeGreaterThan(0);
    expect(all.filter(([name]) => name === 'b').length).toBeGreaterThan(0);
  });

  it('refuses a second durable on the same queue (work-queue semantics)', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    await bus.consume(queue, () => undefined, { durable: 'first' });
    await expect(bus.consume(queue, () => undefined, { durable: 'second' })).rejects.toBeInstanceOf(DurableConflictError);
  });

  it('runs at most `concurrency` handlers at once', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    for (let n = 0; n < 9; n++) await bus.publish(queue, { n });
    let active = 0;
    let maxActive = 0;
    let done = 0;
    await bus.consume(
      queue,
      async () => {
        maxActive = Math.max(maxActive, ++active);
        await sleep(100);
        active--;
        done++;
      },
      { durable: 'worker', concurrency: 3 },
    );

    await waitFor('all 9 jobs', () => done === 9);
    expect(maxActive).toBe(3);
  });

  it('stop() waits for in-flight handlers and leaves the rest for other consumers', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    await bus.publish(queue, { n: 1 });
    await bus.publish(queue, { n: 2 });
    const started: number[] = [];
    const finished: number[] = [];
    const consumer = await bus.consume(
      queue,
      async (job) => {
        started.push(job.data.n);
        await sleep(400);
        finished.push(job.data.n);
      },
      { durable: 'worker', concurrency: 1 },
    );
    expect(await consumer.ready()).toBe(true);

    await waitFor('the first job', () => started.length === 1);
    await consumer.stop();
    expect(finished).toEqual([1]);
    expect(started).toEqual([1]);
    expect(await consumer.ready()).toBe(false);

    const later: number[] = [];
    await bus.consume(queue, (job) => void later.push(job.data.n), { durable: 'worker' });
    await waitFor('the second job on a new consumer', () => later.length === 1);
    expect(later).toEqual([2]);
  });

  it('reports readiness and refuses work once closed', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    expect(await bus.ready()).toBe(true);
    await bus.close();
    expect(await bus.ready()).toBe(false);
    await expect(bus.consume(queue, () => undefined, { durable: 'worker' })).rejects.toThrow(/closed/);
  });
}
