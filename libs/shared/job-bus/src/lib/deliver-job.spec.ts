import { z } from 'zod';
import { createCapturingLogger } from '../testing/capturing-logger';
import { resolveConsumeOptions } from './consume-options.schema';
import { deliverJob, type RawDelivery } from './deliver-job';
import { defineQueue } from './define-queue';

const queue = defineQueue({ name: 'q', subject: 'test.q', schema: z.object({ n: z.number() }) });

function fakeDelivery(body: string, attempt = 1) {
  const calls: string[] = [];
  const raw: RawDelivery = {
    id: 'job-1',
    attempt,
    publishedAt: new Date(Date.now() - 50),
    headers: {},
    decode: () => JSON.parse(body),
    ack: () => calls.push('ack'),
    nak: (delay) => calls.push(`nak:${delay}`),
    term: (reason) => calls.push(`term:${reason}`),
    working: () => calls.push('working'),
  };
  return { raw, calls };
}

describe('deliverJob', () => {
  const opts = resolveConsumeOptions({ durable: 'w', maxDeliver: 3, defaultNakDelayMs: 250 });

  it('acks when the handler returns without settling', async () => {
    const { raw, calls } = fakeDelivery('{"n":1}');
    await deliverJob(queue, raw, () => undefined, opts, createCapturingLogger().logger);
    expect(calls).toEqual(['ack']);
  });

  it('honours only the first settlement', async () => {
    const { raw, calls } = fakeDelivery('{"n":1}');
    await deliverJob(queue, raw, (job) => (job.nak(10), job.ack(), job.working()), opts, createCapturingLogger().logger);
    expect(calls).toEqual(['nak:10']);
  });

  it('naks with the default delay when the handler throws', async () => {
    const { raw, calls } = fakeDelivery('{"n":1}');
    await deliverJob(queue, raw, () => Promise.reject(new Error('boom')), opts, createCapturingLogger().logger);
    expect(calls).toEqual(['nak:250']);
  });

  it('terminates malformed JSON and invalid data without calling the handler', async () => {
    const handler = jest.fn();
    const log = createCapturingLogger();
    for (const body of ['{oops', '{"n":"x"}']) {
      const { raw, calls } = fakeDelivery(body);
      await deliverJob(queue, raw, handler, opts, log.logger);
      expect(calls).toEqual([expect.stringMatching(/^term:/)]);
    }
    expect(handler).not.toHaveBeenCalled();
    expect(log.entries.filter((e) => e.level === 'warn')).toHaveLength(2);
  });

  it('turns a retry on the last allowed delivery into a logged term', async () => {
    const { raw, calls } = fakeDelivery('{"n":1}', 3);
    const log = createCapturingLogger();
    await deliverJob(queue, raw, () => Promise.reject(new Error('boom')), opts, log.logger);
    expect(calls).toEqual(['term:max deliveries reached']);
    expect(log.find('error', 'max deliveries reached')).toHaveLength(1);
  });
});
