import { createJobBus } from './create-job-bus';

describe('createJobBus', () => {
  it('runs in process when no NATS URL is given', async () => {
    const bus = await createJobBus({});
    expect(bus.kind).toBe('in-process');
    await bus.close();
  });
});
