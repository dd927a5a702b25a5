import { deferred, sleep, waitFor } from '../async.testing';
import type { ContractContext } from '../job-bus.contract';

interface Delivery {
  attempt: number;
  at: number;
}

/** Nak, throw, ack wait, working() and maxDeliver. */
export function retryCases(ctx: ContractContext): void {
  it('redelivers a nak(delay) job no sooner than the delay, as attempt 2', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    const deliveries: Delivery[] = [];
    let nakAt = 0;
    await bus.consume(
      queue,
      (job) => {
        deliveries.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt === 1) {
          nakAt = Date.now();
          job.nak(700);
        }
      },
      { durable: 'worker', ackWaitMs: 5_000 },
    );
    await bus.publish(queue, { n: 1 });

    await waitFor('attempt 1', () => deliveries.length === 1);
    await sleep(450);
    expect(deliveries).toHaveLength(1); // still inside the delay
    await waitFor('attempt 2', () => deliveries.length === 2, 3_000);
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2]);
    expect(deliveries[1].at - nakAt).toBeGreaterThanOrEqual(690);
  });

  it('naks a job whose handler throws with defaultNakDelayMs and redelivers it', async () => {
    const { bus, log } = await ctx.setup();
    const queue = ctx.newQueue();
    const attempts: number[] = [];
    await bus.consume(
      queue,
      (job) => {
        attempts.push(job.attempt);
        if (job.attempt === 1) throw new Error('transient');
      },
      { durable: 'worker', defaultNakDelayMs: 100 },
    );
    await bus.publish(queue, { n: 1 });

    await waitFor('the retry', () => attempts.length === 2);
    await sleep(300);
    expect(attempts).toEqual([1, 2]);
    expect(log.find('warn', 'handler failed')[0].obj).toMatchObject({ attempt: 1, err: expect.any(Error) });
  });

  it('redelivers a job left unsettled past ackWaitMs', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    const hang = deferred();
    const deliveries: Delivery[] = [];
    await bus.consume(
      queue,
      async (job) => {
        deliveries.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt === 1) await hang.promise;
      },
      { durable: 'worker', concurrency: 2, ackWaitMs: 500 },
    );
    await bus.publish(queue, { n: 1 });

    await waitFor('attempt 2', () => deliveries.length === 2, 4_000);
    hang.resolve();
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2]);
    expect(deliveries[1].at - deliveries[0].at).toBeGreaterThanOrEqual(480);
  });

  it('keeps a slow job that calls working() from being redelivered', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    const attempts: number[] = [];
    let finished = false;
    await bus.consume(
      queue,
      async (job) => {
        attempts.push(job.attempt);
        for (let i = 0; i < 6; i++) {
          await sleep(200);
          job.working();
        }
        finished = true;
      },
      { durable: 'worker', concurrency: 2, ackWaitMs: 500 },
    );
    await bus.publish(queue, { n: 1 });

    await waitFor('the slow job to finish', () => finished, 4_000);
    await sleep(700);
    expect(attempts).toEqual([1]);
  });

  it('gives a job up after maxDeliver deliveries and logs it', async () => {
    const { bus, log } = await ctx.setup();
    const queue = ctx.newQueue();
    const attempts: number[] = [];
    await bus.consume(
      queue,
      (job) => {
        attempts.push(job.attempt);
        throw new Error('always fails');
      },
      { durable: 'worker', maxDeliver: 3, defaultNakDelayMs: 50, ackWaitMs: 300 },
    );
    await bus.publish(queue, { n: 1 });

    await waitFor('three attempts', () => attempts.length === 3);
    await sleep(700);
    expect(attempts).toEqual([1, 2, 3]);
    expect(log.find('error', 'max deliveries reached')[0].obj).toMatchObject({ attempt: 3 });
  });

  it('drops a job whose last delivery runs out of ack wait, and logs it', async () => {
    const { bus, log } = await ctx.setup();
    const queue = ctx.newQueue();
    const hang = deferred();
    const attempts: number[] = [];
    await bus.consume(
      queue,
      async (job) => {
        attempts.push(job.attempt);
        await hang.promise;
      },
      { durable: 'worker', concurrency: 2, maxDeliver: 1, ackWaitMs: 300 },
    );
    const { id } = await bus.publish(queue, { n: 1 });

    await waitFor('the give-up log line', () => log.find('error', 'max deliveries reached').length > 0, 3_000);
    await sleep(400);
    hang.resolve();
    expect(attempts).toEqual([1]);
    expect(log.find('error', 'max deliveries reached')[0].obj).toMatchObject({ jobId: id, attempt: 1 });
  });
}
