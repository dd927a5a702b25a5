import { Client } from '@langchain/langgraph-sdk';
import { systemAssistantId } from '@platform/agent-server-assistants';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { cronsGatewayHeaders, startTestCronsApp, type TestCronsApp } from './crons-app.testing';

describe('the official JS SDK (@langchain/langgraph-sdk) against the crons routes', () => {
  let t: TestCronsApp;
  let server: RunningHttpServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestCronsApp();
    server = await startHttpServer(t.app, '127.0.0.1', 0);
    client = new Client({ apiUrl: server.url, apiKey: null, defaultHeaders: cronsGatewayHeaders(), callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server?.close(1_000);
    await t?.close();
  });

  it('creates, searches, counts, updates and deletes crons', async () => {
    const stateless = await client.crons.create('chat', {
      schedule: '0 * * * *',
      input: { messages: [{ role: 'user', content: 'hourly' }] },
      metadata: { kind: 'sdk' },
      onRunCompleted: 'keep',
      timezone: 'UTC',
      endTime: '2099-12-31T00:00:00Z',
    });
    expect(stateless).toMatchObject({ assistant_id: systemAssistantId('chat'), thread_id: null, schedule: '0 * * * *', end_time: '2099-12-31T00:00:00.000Z' });
    expect(new Date(stateless.next_run_date).getUTCMinutes()).toBe(0);

    const thread = await t.threads.create({});
    const onThread = await client.crons.createForThread(thread.thread_id, 'chat', {
      schedule: '*/30 * * * *',
      input: { messages: [{ role: 'user', content: 'half-hourly' }] },
      metadata: { kind: 'sdk' },
      multitaskStrategy: 'enqueue',
    });
    expect(onThread.thread_id).toBe(thread.thread_id);

    const found = await client.crons.search({ metadata: { kind: 'sdk' }, sortBy: 'created_at', sortOrder: 'asc' });
    expect(found.map((c) => c.cron_id)).toEqual([stateless.cron_id, onThread.cron_id]);
    expect(await client.crons.search({ threadId: thread.thread_id, select: ['cron_id', 'schedule'] })).toEqual([{ cron_id: onThread.cron_id, schedule: '*/30 * * * *' }]);
    expect(await client.crons.search({ assistantId: 'chat', enabled: false })).toEqual([]);
    expect(await client.crons.count({ assistantId: 'chat', metadata: { kind: 'sdk' } })).toBe(2);
    expect(await client.crons.count({ threadId: thread.thread_id })).toBe(1);

    const updated = await client.crons.update(stateless.cron_id, { schedule: '15 * * * *', enabled: false, endTime: null, metadata: { extra: 1 } });
    expect(updated).toMatchObject({ schedule: '15 * * * *', enabled: false, end_time: null, metadata: { kind: 'sdk', extra: 1 } });
    expect(new Date(updated.next_run_date!).getUTCMinutes()).toBe(15);

    await t.makeDue(onThread.cron_id);
    const [firing] = await t.scheduler.tick();
    expect(firing?.cron_id).toBe(onThread.cron_id);
    // Only the crons routes are mounted here: the run is read from the run service.
    expect((await t.runs.waitForEnd(firing!.run_id!))?.status).toBe('success');
    const runs = await t.runs.list(thread.thread_id, { limit: 10, offset: 0 });
    expect(runs.map((r) => r.metadata)).toEqual([expect.objectContaining({ kind: 'sdk', cron_id: onThread.cron_id })]);

    await client.crons.delete(stateless.cron_id);
    await client.crons.delete(onThread.cron_id);
    expect(await client.crons.count({ metadata: { kind: 'sdk' } })).toBe(0);
    await expect(client.crons.delete(onThread.cron_id)).rejects.toMatchObject({ status: 404 });
    await expect(client.crons.create('chat', { schedule: 'not a cron' })).rejects.toMatchObject({ status: 422 });
  });
});
