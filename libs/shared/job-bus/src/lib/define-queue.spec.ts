import { z } from 'zod';
import { defineQueue, encodePayload, type JobData, type JobInput } from './define-queue';
import { JobPayloadError } from './job-bus.errors';

const queue = defineQueue({
  name: 'export-partitions',
  subject: 'export.partition.run',
  schema: z.object({ exportId: z.uuid(), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), attempt: z.number().default(0) }),
});

describe('defineQueue', () => {
  it('keeps the schema with the queue and infers input and data types', () => {
    const input: JobInput<typeof queue> = { exportId: '6f1c1d5e-2b9a-4d5e-8f3a-1c2b3d4e5f60', day: '2024-01-01' };
    const data: JobData<typeof queue> = queue.schema.parse(input);
    expect(data.attempt).toBe(0);
  });

  it('refuses names and subjects JetStream cannot use', () => {
    expect(() => defineQueue({ name: 'a.b', subject: 'x', schema: z.any() })).toThrow(/name/);
    expect(() => defineQueue({ name: 'a', subject: 'x.*', schema: z.any() })).toThrow(/subject/);
    expect(() => defineQueue({ name: 'a', subject: 'x..y', schema: z.any() })).toThrow(/subject/);
  });
});

describe('encodePayload', () => {
  it('returns the JSON of a valid payload', () => {
    const payload = { exportId: '6f1c1d5e-2b9a-4d5e-8f3a-1c2b3d4e5f60', day: '2024-01-01' };
    expect(JSON.parse(encodePayload(queue, payload))).toEqual(payload);
  });

  it('throws a JobPayloadError naming the bad fields', () => {
    let error: unknown;
    try {
      encodePayload(queue, { exportId: 'nope', day: '2024-01-01' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JobPayloadError);
    expect(error).toMatchObject({ code: 'input', queue: 'export-partitions', message: expect.stringContaining('exportId') });
  });
});
