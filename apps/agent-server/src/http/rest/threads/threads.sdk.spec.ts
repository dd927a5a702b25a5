import { Client } from '@langchain/langgraph-sdk';
import { RemoteGraph } from '@langchain/langgraph/remote';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { gatewayHeaders, startTestThreadsApp, type TestThreadsApp } from './threads-app.testing';

type Messages = { messages: { type: string; content: string }[] };

describe('the official JS SDK (@langchain/langgraph-sdk) against the threads routes', () => {
  let t: TestThreadsApp;
  let server: RunningHttpServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestThreadsApp();
    server = await startHttpServer(t.app, '127.0.0.1', 0);
    client = new Client({ apiUrl: server.url, apiKey: null, defaultHeaders: gatewayHeaders(), callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server?.close(1_000);
    await t?.close();
  });

  it('manages threads: create, get, update, search, count, copy, delete', async () => {
    const thread = await client.threads.create({ graphId: 'chat', metadata: { owner: 'sdk' } });
    expect(thread).toMatchObject({ status: 'idle', metadata: { owner: 'sdk', graph_id: 'chat' }, values: {} });
    expect(await client.threads.get(thread.thread_id)).toEqual(thread);
    await expect(client.threads.create({ threadId: thread.thread_id })).rejects.toMatchObject({ status: 409 });
    expect(await client.threads.create({ threadId: thread.thread_id, ifExists: 'do_nothing' })).toEqual(thread);

    const updated = await client.threads.update(thread.thread_id, { metadata: { stage: 'two' } });
    expect(updated.metadata).toEqual({ owner: 'sdk', graph_id: 'chat', stage: 'two' });
    expect(await client.threads.update(thread.thread_id, { metadata: { quiet: true }, returnMinimal: true })).toBeUndefined();

    const found = await client.threads.search({ metadata: { owner: 'sdk' }, select: ['thread_id', 'metadata'] });
    expect(found).toEqual([{ thread_id: thread.thread_id, metadata: { owner: 'sdk', graph_id: 'chat', stage: 'two', quiet: true } }]);
    expect(await client.threads.count({ metadata: { owner: 'sdk' } })).toBe(1);
    expect(await client.threads.count({ status: 'error' })).toBe(0);

    const copy = await client.threads.copy(thread.thread_id);
    expect(copy.thread_id).not.toBe(thread.thread_id);
    await client.threads.delete(thread.thread_id);
    await expect(client.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    expect(await client.threads.prune([copy.thread_id])).toEqual({ pruned_count: 1 });
  });

  it('reads and writes state and history, at checkpoints, with select', async () => {
    const thread = await client.threads.create({
      graphId: 'chat',
      supersteps: [{ updates: [{ values: { messages: [{ role: 'user', content: 'seeded' }] }, asNode: 'agent' }] }],
    });
    await t.run(thread.thread_id, 'chat', { messages: [{ role: 'user', content: 'hi' }] });

    const state = await client.threads.getState<Messages>(thread.thread_id);
    expect(state.values.messages.map((m) => `${m.type}:${m.content}`)).toEqual(['human:seeded', 'human:hi', 'ai:echo: hi']);
    expect(state.next).toEqual([]);
    const only = await client.threads.getState(thread.thread_id, undefined, { select: ['values.messages'] });
    expect(only).toEqual({ values: { messages: state.values.messages } });

    const { checkpoint } = (await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ role: 'user', content: 'edit' }] },
      asNode: 'agent',
    })) as unknown as { checkpoint: { checkpoint_id: string } };
    const atId = await client.threads.getState<Messages>(thread.thread_id, checkpoint.checkpoint_id);
    expect(atId.values.messages.at(-1)).toMatchObject({ type: 'human', content: 'edit' });
    const atObject = await client.threads.getState(thread.thread_id, state.checkpoint);
    expect(atObject).toEqual(state);

    const history = await client.threads.getHistory(thread.thread_id, { limit: 3 });
    expect(history.map((s) => s.checkpoint.checkpoint_id)).toEqual([checkpoint.checkpoint_id, state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id]);
    const older = await client.threads.getHistory(thread.thread_id, { before: { configurable: { checkpoint_id: state.checkpoint.checkpoint_id } } });
    expect(older[0]!.checkpoint.checkpoint_id).toBe(state.parent_checkpoint?.checkpoint_id);
    await client.threads.patchState(thread.thread_id, { tagged: true });
    expect((await client.threads.getHistory(thread.thread_id, { limit: 1, metadata: { tagged: true } }))[0]!.checkpoint.checkpoint_id).toBe(checkpoint.checkpoint_id);
  });

  it('serves RemoteGraph state reads, updates and history', async () => {
    const thread = await client.threads.create({ graphId: 'approval' });
    await t.run(thread.thread_id, 'approval', { items: ['a'] });
    const remote = new RemoteGraph({ graphId: 'approval', client });
    const config = { configurable: { thread_id: thread.thread_id } };

    const snapshot = await remote.getState(config);
    expect(snapshot.values).toEqual({ items: ['a'] });
    expect(snapshot.next).toEqual(['ask']);
    expect(snapshot.tasks[0]!.interrupts).toEqual([expect.objectContaining({ value: { question: 'ok?' } })]);

    const next = await remote.updateState(config, { items: ['b'] }, '__start__');
    expect(next.configurable).toMatchObject({ thread_id: thread.thread_id, checkpoint_ns: '', checkpoint_id: expect.any(String) });
    const history = [];
    for await (const past of remote.getStateHistory(config, { limit: 2 })) history.push(past);
    expect(history.map((s) => s.config.configurable?.['checkpoint_id'])).toEqual([next.configurable?.['checkpoint_id'], snapshot.config.configurable?.['checkpoint_id']]);
    const before = [];
    for await (const past of remote.getStateHistory(config, { before: snapshot.config, limit: 5 })) before.push(past);
    expect(before[0]!.config.configurable?.['checkpoint_id']).toBe(snapshot.parentConfig?.configurable?.['checkpoint_id']);
  });
});
