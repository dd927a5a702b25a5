import { JobPayloadError } from '../../lib/job-bus.errors';
import type { Job } from '../../lib/job-bus.types';
import { sleep, waitFor } from '../async.testing';
import type { ContractContext } from '../job-bus.contract';

type Data = { n: number };

/** Publish, consume, validation on both sides and dedupe. */
export function deliveryCases(ctx: ContractContext): void {
  it('publishes, delivers once and acks a job whose handler returns', async () => {
    const { bus, log } = await ctx.setup();
    const queue = ctx.newQueue();
    const before = Date.now();
    const published = await bus.publish(queue, { n: 1 }, { headers: { 'x-request-id': 'r1' } });
    const jobs: Job<Data>[] = [];
    await bus.consume(queue, (job) => void jobs.push(job), { durable: 'worker', ackWaitMs: 400 });

    await waitFor('the job', () => jobs.length === 1);
    const [job] = jobs;
    expect(job).toMatchObject({ id: published.id, queue: queue.name, data: { n: 1 }, attempt: 1, headers: { 'x-request-id': 'r1' } });
    expect(job.publishedAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(job.publishedAt.getTime()).toBeLessThanOrEqual(Date.now());
    await sleep(800); // two ack waits: an unacked job would be back by now
    expect(jobs).toHaveLength(1);
    expect(log.find('info', 'job received')[0].obj).toMatchObject({ jobId: published.id, attempt: 1, queueLatencyMs: expect.any(Number) });
  });

  it('rejects an invalid payload on publish and publishes nothing', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    await expect(bus.publish(queue, { n: 'one' } as never)).rejects.toBeInstanceOf(JobPayloadError);
    await expect(bus.publish(queue, { n: 1.5 })).rejects.toMatchObject({ code: 'input' });
    await bus.publish(queue, { n: 2 });
    const seen: number[] = [];
    await bus.consume(queue, (job) => void seen.push(job.data.n), { durable: 'worker' });

    await waitFor('the valid job', () => seen.length === 1);
    await sleep(200);
    expect(seen).toEqual([2]);
  });

  it('terminates an invalid message on receipt, never retrying it, and logs it', async () => {
    const { bus, log } = await ctx.setup();
    const queue = ctx.newQueue();
    await bus.publish(ctx.looseTwin(queue), { n: 'not a number' });
    await bus.publish(queue, { n: 3 });
    const seen: number[] = [];
    await bus.consume(queue, (job) => void seen.push(job.data.n), { durable: 'worker', ackWaitMs: 300, maxDeliver: 5, defaultNakDelayMs: 0 });

    await waitFor('the valid job', () => seen.length === 1);
    await sleep(700);
    expect(seen).toEqual([3]);
    const invalid = log.find('warn', 'invalid job payload');
    expect(invalid).toHaveLength(1);
    expect(invalid[0].obj).toMatchObject({ queue: queue.name, attempt: 1 });
  });

  it('drops a second publish with the same msgId', async () => {
    const { bus } = await ctx.setup();
    const queue = ctx.newQueue();
    const first = await bus.publish(queue, { n: 1 }, { msgId: 'job-1' });
    const again = await bus.publish(queue, { n: 1 }, { msgId: 'job-1' });
    await bus.publish(queue, { n: 2 }, { msgId: 'job-2' });
    expect(first).toEqual({ id: 'job-1', duplicate: false });
    expect(again).toEqual({ id: 'job-1', duplicate: true });
    const ids: string[] = [];
    await bus.consume(queue, (job) => void ids.push(job.id), { durable: 'worker' });

    await waitFor('both jobs', () => ids.length === 2);
    await sleep(300);
    expect(ids).toEqual(['job-1', 'job-2']);
  });
}
