import { randomUUID } from 'node:crypto';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { ConflictError, NotFoundError } from '@platform/errors';
import { parseAccessFilter } from '../access-filter';
import type { AgentServerDatabase } from '../agent-server-database';
import { openTestAgentServerDatabase, type TestAgentServerDatabase } from '../agent-server-database.testing';
import { PrismaCheckpointSaver } from '../checkpoints/prisma-checkpoint.saver';
import { createThreadRepository, type ThreadRepository } from './threads.repository';

/** `chat` on the checkpoint saver: answers every human message with `echo: <text>`. */
function chatGraph(checkpointer: PrismaCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (state) => {
      const last = state.messages.at(-1) as BaseMessage;
      return { messages: [new AIMessage({ content: `echo: ${String(last.content)}` })] };
    })
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__')
    .compile({ checkpointer });
}

describe('thread repository (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let database: TestAgentServerDatabase;
  let fx: { db: AgentServerDatabase; threads: ThreadRepository; graph: ReturnType<typeof chatGraph> };

  beforeAll(async () => {
    database = await openTestAgentServerDatabase();
    const graph = chatGraph(new PrismaCheckpointSaver(database.db.prisma));
    fx = { db: database.db, threads: createThreadRepository(database.db.prisma), graph };
  });
  afterAll(() => database?.close());

  const configOf = (threadId: string) => ({ configurable: { thread_id: threadId } });
  /** Runs the graph on a thread as a run does (checkpoints under the thread's id), then caches its latest values. */
  const runOnThread = async (threadId: string, content: string) => {
    await fx.graph.invoke({ messages: [{ role: 'user', content }] }, configOf(threadId));
    await fx.threads.saveState(threadId, { values: (await fx.graph.getState(configOf(threadId))).values, interrupts: {} });
  };

  it('creates, reads, patches and refuses or returns a taken id', async () => {
    const created = await fx.threads.create({ metadata: { owner: 'ann', tags: ['a'] } });
    expect(created).toEqual({
      thread_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      state_updated_at: created.created_at,
      metadata: { owner: 'ann', tags: ['a'] },
      status: 'idle',
      config: {},
      values: {},
      interrupts: {},
    });
    expect(await fx.threads.get(created.thread_id.toUpperCase())).toEqual(created);

    await expect(fx.threads.create({ thread_id: created.thread_id })).rejects.toThrow(ConflictError);
    const again = await fx.threads.insert({ thread_id: created.thread_id, metadata: { other: 1 }, if_exists: 'do_nothing' });
    expect(again).toEqual({ thread: created, created: false });

    const patched = await fx.threads.patch(created.thread_id, { metadata: { owner: 'bob', extra: true } });
    expect(patched.metadata).toEqual({ owner: 'bob', tags: ['a'], extra: true });
    expect(Date.parse(patched.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const missing = randomUUID();
    // Worded as LangGraph's API server words them.
    await expect(fx.threads.get(missing)).rejects.toThrow(new NotFoundError(`Thread with ID ${missing} not found`));
    await expect(fx.threads.patch(missing, { metadata: {} })).rejects.toThrow(new NotFoundError('Thread not found'));
    expect(await fx.threads.find(missing)).toBeNull();
  });

  it('searches by metadata, values, status and ids, sorts and pages, and counts the same way', async () => {
    const tag = randomUUID();
    const made = [];
    for (const [i, status] of (['idle', 'busy', 'idle', 'error'] as const).entries()) {
      const thread = await fx.threads.create({ metadata: { tag, n: i, nested: { even: i % 2 === 0 } } });
      await fx.threads.setStatus(thread.thread_id, status);
      made.push(thread);
    }
    await fx.threads.saveState(made[2]!.thread_id, { values: { messages: [{ type: 'human', content: 'find me' }] }, interrupts: {} });
    // A status given with the cache does not replace `busy`: the run that set it owns the thread.
    await fx.threads.saveState(made[1]!.thread_id, { values: { n: 1 }, interrupts: {}, status: 'idle' });
    expect(await fx.threads.get(made[1]!.thread_id)).toMatchObject({ status: 'busy', values: { n: 1 } });

    const ids = (threads: { thread_id: string }[]) => threads.map((t) => t.thread_id);
    const all = await fx.threads.search({ metadata: { tag }, limit: 10, offset: 0 });
    expect(ids(all)).toEqual(ids(made).reverse());
    expect(ids(await fx.threads.search({ metadata: { tag }, limit: 10, offset: 0, sortBy: 'created_at', sortOrder: 'asc' }))).toEqual(ids(made));
    expect(ids(await fx.threads.search({ metadata: { tag }, limit: 2, offset: 1, sortOrder: 'asc' }))).toEqual(ids(made.slice(1, 3)));
    expect(ids(await fx.threads.search({ metadata: { tag, nested: { even: true } }, limit: 10, offset: 0, sortOrder: 'asc' }))).toEqual(
      ids([made[0]!, made[2]!]),
    );
    expect(ids(await fx.threads.search({ metadata: { tag }, status: 'idle', limit: 10, offset: 0, sortOrder: 'asc' }))).toEqual(ids([made[0]!, made[2]!]));
    expect(ids(await fx.threads.search({ values: { messages: [{ content: 'find me' }] }, limit: 10, offset: 0 }))).toEqual([made[2]!.thread_id]);
    expect(ids(await fx.threads.search({ ids: [made[3]!.thread_id, made[1]!.thread_id.toUpperCase()], limit: 10, offset: 0, sortBy: 'status' }))).toEqual(
      ids([made[3]!, made[1]!]),
    );
    const byUpdate = await fx.threads.search({ metadata: { tag }, limit: 10, offset: 0, sortBy: 'updated_at', sortOrder: 'desc' });
    expect(byUpdate.map((t) => t.thread_id).slice(0, 2)).toEqual([made[1]!.thread_id, made[2]!.thread_id]);

    expect(await fx.threads.count({ metadata: { tag } })).toBe(4);
    expect(await fx.threads.count({ metadata: { tag }, status: 'busy' })).toBe(1);
    expect(await fx.threads.count({ metadata: { tag: randomUUID() } })).toBe(0);
  });

  it('sorts by when the state last changed', async () => {
    const tag = randomUUID();
    const first = await fx.threads.create({ metadata: { tag, graph_id: 'chat' } });
    const second = await fx.threads.create({ metadata: { tag, graph_id: 'chat' } });
    await runOnThread(first.thread_id, 'later');
    const sorted = await fx.threads.search({ metadata: { tag }, limit: 10, offset: 0, sortBy: 'state_updated_at', sortOrder: 'desc' });
    expect(sorted.map((t) => t.thread_id)).toEqual([first.thread_id, second.thread_id]);
    expect(Date.parse(sorted[0]!.state_updated_at)).toBeGreaterThan(Date.parse(first.created_at));
  });

  it('deletes a thread with its runs, run events and checkpoints, leaving other threads alone', async () => {
    const doomed = await fx.threads.create({ metadata: { graph_id: 'chat' } });
    const kept = await fx.threads.create({ metadata: { graph_id: 'chat' } });
    const runIds = new Map<string, string>();
    for (const thread of [doomed, kept]) {
      await runOnThread(thread.thread_id, 'hi');
      const run = await fx.db.prisma.run.create({ data: { runId: randomUUID(), threadId: thread.thread_id, assistantId: randomUUID() } });
      await fx.db.prisma.runEvent.createMany({ data: [0, 1].map((seq) => ({ runId: run.runId, seq, event: 'values', data: '{}' })) });
      runIds.set(thread.thread_id, run.runId);
    }
    const rowsOf = async (threadId: string) => ({
      runs: await fx.db.prisma.run.count({ where: { threadId } }),
      events: await fx.db.prisma.runEvent.count({ where: { runId: runIds.get(threadId) } }),
      checkpoints: await fx.db.prisma.checkpoint.count({ where: { threadId } }),
      blobs: await fx.db.prisma.checkpointBlob.count({ where: { threadId } }),
      writes: await fx.db.prisma.checkpointWrite.count({ where: { threadId } }),
    });
    const before = await rowsOf(kept.thread_id);
    expect(before).toMatchObject({ runs: 1, events: 2 });
    expect(before.checkpoints).toBeGreaterThan(0);
    expect(before.blobs).toBeGreaterThan(0);

    await fx.threads.delete(doomed.thread_id.toUpperCase());
    expect(await fx.threads.find(doomed.thread_id)).toBeNull();
    expect(await rowsOf(doomed.thread_id)).toEqual({ runs: 0, events: 0, checkpoints: 0, blobs: 0, writes: 0 });
    expect(await rowsOf(kept.thread_id)).toEqual(before);
    await expect(fx.threads.delete(doomed.thread_id)).rejects.toThrow(NotFoundError);
    expect(await fx.threads.deleteMany([doomed.thread_id, randomUUID()])).toBe(0);
  });

  it('copies a thread with its whole history under a new id, independent of the original', async () => {
    const source = await fx.threads.create({ metadata: { graph_id: 'chat', owner: 'ann' } });
    await runOnThread(source.thread_id, 'one');
    await fx.threads.setStatus(source.thread_id, 'busy');

    const copy = await fx.threads.copy(source.thread_id);
    expect(copy.thread_id).not.toBe(source.thread_id);
    // The copy's metadata names the copy, as LangGraph's API server writes it.
    expect(copy.metadata).toEqual({ graph_id: 'chat', owner: 'ann', thread_id: copy.thread_id });
    expect(copy.status).toBe('idle');
    expect(copy.config).toEqual({});
    expect(copy.values).toEqual((await fx.threads.get(source.thread_id)).values);

    const historyOf = async (threadId: string) => {
      const states = [];
      for await (const s of fx.graph.getStateHistory(configOf(threadId))) states.push(s);
      return states;
    };
    const summary = async (threadId: string) => (await historyOf(threadId)).map((s) => ({ values: s.values, id: s.config.configurable?.['checkpoint_id'], next: s.next }));
    expect(await summary(copy.thread_id)).toEqual(await summary(source.thread_id));
    expect((await historyOf(copy.thread_id)).every((s) => s.config.configurable?.['thread_id'] === copy.thread_id)).toBe(true);

    await runOnThread(copy.thread_id, 'two');
    const contents = async (threadId: string) => ((await fx.graph.getState(configOf(threadId))).values as { messages: BaseMessage[] }).messages.map((m) => m.content);
    expect(await contents(copy.thread_id)).toEqual(['one', 'echo: one', 'two', 'echo: two']);
    expect(await contents(source.thread_id)).toEqual(['one', 'echo: one']);
    await expect(fx.threads.copy(randomUUID())).rejects.toThrow(NotFoundError);
  });
  it("applies the caller's filter (the deployment's auth) to every read and write, in SQL", async () => {
    const tag = randomUUID();
    const ann = parseAccessFilter({ owner: 'ann' });
    const bob = parseAccessFilter({ owner: { $eq: 'bob' } });
    const mine = await fx.threads.create({ metadata: { tag, owner: 'ann' } });
    const theirs = await fx.threads.create({ metadata: { tag, owner: 'bob' } });

    expect(await fx.threads.get(mine.thread_id, ann)).toEqual(mine);
    await expect(fx.threads.get(theirs.thread_id, ann)).rejects.toThrow(new NotFoundError(`Thread with ID ${theirs.thread_id} not found`));
    expect(await fx.threads.find(theirs.thread_id, ann)).toBeNull();
    const ids = (threads: { thread_id: string }[]) => threads.map((t) => t.thread_id);
    expect(ids(await fx.threads.search({ metadata: { tag }, limit: 10, offset: 0 }, ann))).toEqual([mine.thread_id]);
    expect(await fx.threads.count({ metadata: { tag } }, bob)).toBe(1);
    expect(await fx.threads.count({ metadata: { tag } })).toBe(2);

    await expect(fx.threads.patch(theirs.thread_id, { metadata: { owner: 'ann' } }, ann)).rejects.toThrow(NotFoundError);
    expect((await fx.threads.patch(mine.thread_id, { metadata: { seen: true } }, ann)).metadata).toEqual({ tag, owner: 'ann', seen: true });
    // An id someone else holds is taken, even for `do_nothing`, and says nothing of that thread.
    await expect(fx.threads.insert({ thread_id: theirs.thread_id, if_exists: 'do_nothing' }, ann)).rejects.toThrow(ConflictError);
    expect(await fx.threads.insert({ thread_id: mine.thread_id, if_exists: 'do_nothing' }, ann)).toMatchObject({ created: false });

    await expect(fx.threads.copy(theirs.thread_id, { visible: ann })).rejects.toThrow(NotFoundError);
    const copyId = randomUUID();
    const copy = await fx.threads.copy(mine.thread_id, { visible: ann, copyId, metadata: { tag, owner: 'ann', copied: true } });
    expect(copy).toMatchObject({ thread_id: copyId, metadata: { tag, owner: 'ann', copied: true } });

    await expect(fx.threads.delete(theirs.thread_id, ann)).rejects.toThrow(NotFoundError);
    expect(await fx.threads.deleteMany([theirs.thread_id, copyId], ann)).toBe(1);
    expect(await fx.threads.find(theirs.thread_id)).not.toBeNull();
    await fx.threads.delete(theirs.thread_id, bob);
    expect(await fx.threads.find(theirs.thread_id)).toBeNull();
  });
});
