import { randomBytes } from 'node:crypto';
import { defineQueue, installationDurable, installationQueue } from '../lib/define-queue';
import type { Job } from '../lib/job-bus.types';
import { waitFor } from '../testing/async.testing';
import { testJobSchema } from '../testing/test-job.schema';
import { createJetStreamBus, type JetStreamJobBus } from './jetstream.bus';

const natsUrl = process.env.NATS_URL;
const describeNats = natsUrl ? describe : describe.skip;

// Two installations of the platform on one NATS server: the same queue in code, a NATS_PREFIX each.
describeNats('two installations on one NATS (NATS_PREFIX)', () => {
  const tag = randomBytes(4).toString('hex');
  const shared = defineQueue({ name: `jobs_${tag}`, subject: `test.${tag}.jobs`, schema: testJobSchema });
  const green = installationQueue(shared, `green${tag}`);
  const blue = installationQueue(shared, `blue${tag}`);
  let busA: JetStreamJobBus;
  let busB: JetStreamJobBus;

  beforeAll(async () => {
    busA = await createJetStreamBus({ servers: natsUrl as string });
    busB = await createJetStreamBus({ servers: natsUrl as string });
  });
  afterAll(async () => {
    await busA?.deleteQueue(green);
    await busB?.deleteQueue(blue);
    await busA?.close();
    await busB?.close();
  });

  it('gives each its own stream, subject and durable, and each consumes only its own jobs', async () => {
    expect([green.name, green.subject, blue.name, blue.subject]).toEqual([`green${tag}-jobs_${tag}`, `green${tag}.test.${tag}.jobs`, `blue${tag}-jobs_${tag}`, `blue${tag}.test.${tag}.jobs`]);
    const seenA: number[] = [];
    const seenB: number[] = [];
    const handler = (seen: number[]) => async (job: Job<{ n: number }>) => {
      seen.push(job.data.n);
    };
    const a = await busA.consume(green, handler(seenA), { durable: installationDurable('workers', `green${tag}`), concurrency: 1, ackWaitMs: 5_000 });
    const b = await busB.consume(blue, handler(seenB), { durable: installationDurable('workers', `blue${tag}`), concurrency: 1, ackWaitMs: 5_000 });
    for (const n of [1, 2, 3]) await busA.publish(green, { n });
    for (const n of [10, 20]) await busB.publish(blue, { n });
    await waitFor('both installations to consume their jobs', () => seenA.length === 3 && seenB.length === 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seenA.sort((x, y) => x - y)).toEqual([1, 2, 3]);
    expect(seenB.sort((x, y) => x - y)).toEqual([10, 20]);
    expect(a.durable).toBe(`green${tag}-workers`);
    await a.stop();
    await b.stop();
  });

  it('keeps a queue as it is with no prefix (existing installations)', () => {
    expect(installationQueue(shared, '')).toBe(shared);
    expect(installationDurable('workers', '')).toBe('workers');
  });
});
