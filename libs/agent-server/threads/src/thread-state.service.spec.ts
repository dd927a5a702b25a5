import { randomUUID } from 'node:crypto';
import { Command } from '@langchain/langgraph';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import { createThread } from './create-thread.usecase';
import { pruneThreads } from './prune-threads.usecase';
import { openThreadsFixture, runOnThread, type ThreadsFixture } from './threads.testing';

jest.setTimeout(60_000);

type Messages = { messages: { type: string; content: string }[] };
const contents = (values: unknown) => (values as Messages).messages.map((m) => `${m.type}:${m.content}`);

describe('thread state through the graph (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let fx: ThreadsFixture;
  const chatThread = async () => (await fx.threads.create({ metadata: { graph_id: 'chat' } })).thread_id;

  beforeAll(async () => {
    fx = await openThreadsFixture();
  });
  afterAll(() => fx?.close());

  it('reads the state after a run and caches it on the thread', async () => {
    const threadId = await chatThread();
    await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: 'hello' }] });

    const state = await fx.state.getState(threadId);
    expect(contents(state.values)).toEqual(['human:hello', 'ai:echo: hello']);
    expect(state).toMatchObject({ next: [], tasks: [], interrupts: [], metadata: { source: 'loop', step: 1 } });
    expect(state.checkpoint).toEqual({ thread_id: threadId, checkpoint_ns: '', checkpoint_id: expect.any(String), checkpoint_map: null });
    expect(state.parent_checkpoint?.checkpoint_id).toEqual(expect.any(String));
    expect(Date.parse(state.created_at!)).not.toBeNaN();
    expect((await fx.threads.get(threadId)).values).toEqual(state.values);
  });

  it('gives a thread without a graph an empty state and history, and refuses to update it', async () => {
    const { thread_id: threadId } = await fx.threads.create({});
    // As LangGraph's API server: no checkpoint yet is `checkpoint: null`, and no metadata at all.
    const empty = await fx.state.getState(threadId);
    expect(empty).toEqual({ values: {}, next: [], tasks: [], created_at: null, checkpoint: null, parent_checkpoint: null, interrupts: [] });
    expect(await fx.state.history(threadId)).toEqual([]);
    await expect(fx.state.updateState(threadId, { values: { messages: [] } })).rejects.toThrow(new InputError(`Thread ${threadId} has no graph ID`));
    await expect(fx.state.getState(randomUUID())).rejects.toThrow(NotFoundError);
    // A graph but no run yet: the empty state of the root namespace.
    expect(await fx.state.getState(await chatThread())).toMatchObject({ values: {}, next: [], checkpoint: null });
  });

  it('updates the state as a node, from the latest checkpoint or an older one, and refuses while busy', async () => {
    const threadId = await chatThread();
    await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: 'one' }] });
    const first = await fx.state.getState(threadId);

    const { checkpoint } = await fx.state.updateState(threadId, { values: { messages: [{ role: 'user', content: 'edited' }] }, as_node: 'agent' });
    // Where LangGraph wrote it, as it answered (no `checkpoint_map` of the root namespace).
    expect(checkpoint).toEqual({ thread_id: threadId, checkpoint_ns: '', checkpoint_id: expect.any(String) });
    const updated = await fx.state.getState(threadId);
    expect(updated.checkpoint?.checkpoint_id).toBe(checkpoint['checkpoint_id']);
    expect(contents(updated.values)).toEqual(['human:one', 'ai:echo: one', 'human:edited']);
    // The update's checkpoint names the thread's graph, as a run's do.
    expect(updated.metadata).toMatchObject({ source: 'update', graph_id: 'chat' });
    expect(await fx.threads.get(threadId)).toMatchObject({ status: 'idle', values: updated.values });

    // Written as if by `__start__`, the update makes the agent run next.
    await fx.state.updateState(threadId, { values: { messages: [{ role: 'user', content: 'again' }] }, as_node: '__start__' });
    expect((await fx.state.getState(threadId)).next).toEqual(['agent']);
    expect((await fx.threads.get(threadId)).status).toBe('interrupted');

    // From the first checkpoint: a fork that does not see the later updates.
    const fork = await fx.state.updateState(threadId, {
      values: { messages: [{ role: 'user', content: 'fork' }] },
      as_node: 'agent',
      checkpoint: { checkpoint_id: first.checkpoint!.checkpoint_id },
    });
    expect(contents((await fx.state.getState(threadId, { checkpoint: fork.checkpoint })).values)).toEqual(['human:one', 'ai:echo: one', 'human:fork']);

    await expect(fx.state.updateState(threadId, { values: { messages: [] }, as_node: 'nope' })).rejects.toThrow(InputError);
    await fx.threads.setStatus(threadId, 'busy');
    await expect(fx.state.updateState(threadId, { values: { messages: [] }, as_node: 'agent' })).rejects.toThrow(new ConflictError('Thread is busy'));
  });

  it('lists history newest first with limit, before and metadata filters, and reads any past state', async () => {
    const threadId = await chatThread();
    await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: 'a' }] });
    await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: 'b' }] });

    const all = await fx.state.history(threadId, { limit: 100 });
    // Each run writes an input checkpoint, one after `__start__` and one after `agent`.
    expect(all).toHaveLength(6);
    const ids = all.map((s) => s.checkpoint!.checkpoint_id!);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(all.map((s) => s.metadata?.['step'])).toEqual([4, 3, 2, 1, 0, -1]);
    expect(contents(all[0]!.values)).toEqual(['human:a', 'ai:echo: a', 'human:b', 'ai:echo: b']);
    expect(all.every((s, i) => i === all.length - 1 || s.parent_checkpoint?.checkpoint_id === ids[i + 1])).toBe(true);

    expect((await fx.state.history(threadId, { limit: 2 })).map((s) => s.checkpoint!.checkpoint_id)).toEqual(ids.slice(0, 2));
    expect((await fx.state.history(threadId, { limit: 2, before: ids[1] })).map((s) => s.checkpoint!.checkpoint_id)).toEqual(ids.slice(2, 4));
    expect((await fx.state.history(threadId, { before: { checkpoint_id: ids[3] } })).map((s) => s.checkpoint!.checkpoint_id)).toEqual(ids.slice(4));
    const inputs = await fx.state.history(threadId, { metadata: { source: 'input' } });
    expect(inputs.map((s) => s.checkpoint!.checkpoint_id)).toEqual(all.filter((s) => s.metadata?.['source'] === 'input').map((s) => s.checkpoint!.checkpoint_id));
    expect(inputs).toHaveLength(2);

    const past = await fx.state.getState(threadId, { checkpoint: { checkpoint_id: ids[3] } });
    expect(past).toEqual(all[3]);
    expect(contents(past.values)).toEqual(['human:a', 'ai:echo: a']);
  });

  it('shows interrupts in the state and on the thread, and subgraph states when asked', async () => {
    const threadId = (await fx.threads.create({ metadata: { graph_id: 'approval' } })).thread_id;
    await runOnThread(fx, threadId, 'approval', { items: ['start'] });
    const state = await fx.state.getState(threadId);
    expect(state.next).toEqual(['ask']);
    // A task as LangGraph's API server shows one: every key there, nulls where nothing is known.
    expect(state.tasks).toEqual([
      {
        id: expect.any(String),
        name: 'ask',
        path: ['__pregel_pull', 'ask'],
        error: null,
        interrupts: [{ id: expect.any(String), value: { question: 'ok?' } }],
        checkpoint: null,
        state: null,
        result: null,
      },
    ]);
    expect(state.interrupts).toEqual(state.tasks[0]!.interrupts);
    expect((await fx.threads.get(threadId)).interrupts).toEqual({ [state.tasks[0]!.id]: state.tasks[0]!.interrupts });

    await runOnThread(fx, threadId, 'approval', new Command({ resume: 'yes' }));
    expect(await fx.state.getState(threadId)).toMatchObject({ values: { items: ['start', 'yes'] }, next: [], interrupts: [] });
    expect((await fx.threads.get(threadId)).interrupts).toEqual({});

    const nestedId = (await fx.threads.create({ metadata: { graph_id: 'nested' } })).thread_id;
    await runOnThread(fx, nestedId, 'nested', { items: ['n'] });
    const flat = await fx.state.getState(nestedId);
    // Read without subgraphs, a subgraph task's checkpoint is its config's `configurable` as it is.
    expect(flat.tasks[0]).toMatchObject({ name: 'inner', state: null, checkpoint: { thread_id: nestedId, checkpoint_ns: expect.stringMatching(/^inner:/) } });
    expect(flat.tasks[0]!.checkpoint).not.toHaveProperty('checkpoint_id');
    // With subgraphs, its state (with its own checkpoint) and no checkpoint of its own.
    const deep = await fx.state.getState(nestedId, { subgraphs: true });
    expect(deep.tasks[0]!.state).toMatchObject({ values: { items: ['n'] }, next: ['ask'], tasks: [expect.objectContaining({ name: 'ask' })] });
    expect(deep.tasks[0]!.checkpoint).toBeNull();
    expect(deep.tasks[0]!.state?.checkpoint?.checkpoint_ns).toMatch(/^inner:/);
  });

  it('creates a thread from supersteps, and leaves none behind when they fail', async () => {
    const thread = await createThread(fx, {
      metadata: { graph_id: 'chat' },
      supersteps: [
        { updates: [{ values: { messages: [{ role: 'user', content: 'q' }] }, as_node: '__start__' }] },
        { updates: [{ values: { messages: [{ role: 'ai', content: 'a' }] }, as_node: 'agent' }] },
      ],
    });
    expect(contents(thread.values)).toEqual(['human:q', 'ai:a']);
    expect(await fx.state.getState(thread.thread_id)).toMatchObject({ next: [] });

    const withCommand = await createThread(fx, {
      metadata: { graph_id: 'approval' },
      supersteps: [{ updates: [{ command: { update: { items: ['via command'] } }, as_node: '__start__' }] }],
    });
    expect((await fx.state.getState(withCommand.thread_id)).values).toEqual({ items: ['via command'] });

    const threadId = randomUUID();
    await expect(createThread(fx, { thread_id: threadId, metadata: { graph_id: 'chat' }, supersteps: [{ updates: [{ values: {}, as_node: 'nope' }] }] })).rejects.toThrow(
      InputError,
    );
    expect(await fx.threads.find(threadId)).toBeNull();
    await expect(createThread(fx, { supersteps: [{ updates: [{ values: {}, as_node: 'agent' }] }] })).rejects.toThrow(/graph_id/);
  });

  it('prunes threads: delete removes them, keep_latest keeps only the latest state, which runs go on from', async () => {
    const [a, b] = [await chatThread(), await chatThread()];
    for (const threadId of [a, b]) {
      await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: '1' }] });
      await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: '2' }] });
    }
    const latest = await fx.state.getState(b);
    const blobsBefore = await fx.db.prisma.checkpointBlob.count({ where: { threadId: b } });

    expect(await pruneThreads(fx, { threadIds: [b, randomUUID()], strategy: 'keep_latest' })).toBe(1);
    const history = await fx.state.history(b, { limit: 100 });
    expect(history).toHaveLength(1);
    expect(history[0]).toEqual({ ...latest, parent_checkpoint: null });
    expect(await fx.db.prisma.checkpointBlob.count({ where: { threadId: b } })).toBeLessThan(blobsBefore);
    await runOnThread(fx, b, 'chat', { messages: [{ role: 'user', content: '3' }] });
    expect(contents((await fx.state.getState(b)).values)).toEqual(['human:1', 'ai:echo: 1', 'human:2', 'ai:echo: 2', 'human:3', 'ai:echo: 3']);

    expect(await pruneThreads(fx, { threadIds: [a, a.toUpperCase(), randomUUID()], strategy: 'delete' })).toBe(1);
    expect(await fx.threads.find(a)).toBeNull();
    expect(await fx.db.prisma.checkpoint.count({ where: { threadId: a } })).toBe(0);
  });

  it('patches the metadata of the latest checkpoint', async () => {
    const threadId = await chatThread();
    await expect(fx.state.patchStateMetadata(threadId, { note: 'x' })).rejects.toThrow(NotFoundError);
    await runOnThread(fx, threadId, 'chat', { messages: [{ role: 'user', content: 'hi' }] });
    await fx.state.patchStateMetadata(threadId, { note: 'reviewed' });
    const [latest, previous] = await fx.state.history(threadId, { limit: 2 });
    expect(latest!.metadata).toMatchObject({ note: 'reviewed', source: 'loop' });
    expect(previous!.metadata).not.toHaveProperty('note');
  });
});
