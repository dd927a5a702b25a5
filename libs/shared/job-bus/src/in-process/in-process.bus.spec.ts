import { z } from 'zod';
import { defineQueue } from '../lib/define-queue';
import { sleep, waitFor } from '../testing/async.testing';
import { describeJobBusContract } from '../testing/job-bus.contract';
import { createInProcessBus } from './in-process.bus';

describeJobBusContract('in-process', { createBus: async (logger) => createInProcessBus({ logger }) });

describe('createInProcessBus', () => {
  const queue = defineQueue({ name: 'dedupe', subject: 'test.dedupe', schema: z.object({ n: z.number() }) });

  it('forgets a msgId once the duplicate window has passed', async () => {
    const bus = createInProcessBus({ duplicateWindowMs: 100 });
    expect((await bus.publish(queue, { n: 1 }, { msgId: 'a' })).duplicate).toBe(false);
    expect((await bus.publish(queue, { n: 1 }, { msgId: 'a' })).duplicate).toBe(true);
    await sleep(150);
    expect((await bus.publish(queue, { n: 1 }, { msgId: 'a' })).duplicate).toBe(false);
    await bus.close();
  });

  it('keeps jobs published before anyone consumes', async () => {
    const bus = createInProcessBus();
    await bus.publish(queue, { n: 1 });
    const seen: number[] = [];
    await bus.consume(queue, (job) => void seen.push(job.data.n), { durable: 'late' });
    await waitFor('the early job', () => seen.length === 1);
    await bus.close();
  });

  it('rejects bad consume options', async () => {
    const bus = createInProcessBus();
    await expect(bus.consume(queue, () => undefined, { durable: 'a.b' })).rejects.toThrow(/durable/);
    await expect(bus.consume(queue, () => undefined, { durable: 'ok', concurrency: 0 })).rejects.toThrow(/concurrency/);
    await bus.close();
  });
});
