import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { gatewayHeaders, startTestThreadsApp, type TestThreadsApp } from './threads-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describe('threads routes (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let t: TestThreadsApp;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(t.app)[method](path).set(gatewayHeaders());

  beforeAll(async () => {
    t = await startTestThreadsApp();
  });
  afterAll(() => t?.close());

  it('creates, reads, patches, copies and deletes threads', async () => {
    const created = await call('post', '/threads').send({ metadata: { owner: 'ann' } }).expect(200);
    expect(created.body).toMatchObject({ thread_id: expect.any(String), status: 'idle', metadata: { owner: 'ann' }, values: {}, interrupts: {}, config: {} });
    const id: string = created.body.thread_id;

    await call('post', '/threads').send({ thread_id: id }).expect(409);
    const same = await call('post', '/threads').send({ thread_id: id.toUpperCase(), if_exists: 'do_nothing', metadata: { x: 1 } }).expect(200);
    expect(same.body).toEqual(created.body);
    expect((await call('post', '/threads').send({}).expect(200)).body.thread_id).not.toBe(id);
    await request(t.app).post('/threads').send({}).expect(401);

    expect((await call('get', `/threads/${id}`).expect(200)).body).toEqual(created.body);
    const patched = await call('patch', `/threads/${id}`).send({ metadata: { tag: 'x' } }).expect(200);
    expect(patched.body.metadata).toEqual({ owner: 'ann', tag: 'x' });
    await call('patch', `/threads/${id}`).set('Prefer', 'return=minimal').send({ metadata: { more: true } }).expect(204);

    const copy = await call('post', `/threads/${id}/copy`).expect(200);
    expect(copy.body.thread_id).not.toBe(id);
    // The copy's metadata names it, as LangGraph's API server does.
    expect(copy.body.metadata).toEqual({ owner: 'ann', tag: 'x', more: true, thread_id: copy.body.thread_id });

    await call('delete', `/threads/${id}`).expect(204);
    // Errors worded as LangGraph's API server words them (the SDK shows them to users).
    const gone = await call('get', `/threads/${id}`).expect(404);
    expect(gone.body).toEqual({ detail: `Thread with ID ${id} not found` });
    expect((await call('delete', `/threads/${id}`).expect(404)).body).toEqual({ detail: `Thread with ID ${id} not found` });
    expect((await call('patch', `/threads/${id}`).send({ metadata: {} }).expect(404)).body).toEqual({ detail: 'Thread not found' });
    expect((await call('post', `/threads/${randomUUID()}/copy`).expect(404)).body).toEqual({ detail: 'Thread not found' });
    expect((await call('post', '/threads').send({ thread_id: copy.body.thread_id }).expect(409)).body).toEqual({ detail: 'Thread already exists' });
  });

  it('answers bad input with FastAPI 422s and unknown ids with 404s, never a 500', async () => {
    const bad = await call('get', '/threads/not-a-uuid').expect(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'thread_id'], type: 'uuid_parsing' });
    await call('get', '/threads/not-a-uuid/state').expect(422);
    await call('post', '/threads/not-a-uuid/history').send({}).expect(422);
    await call('delete', '/threads/123').expect(422);
    const wrongType = await call('post', '/threads').send({ metadata: 'nope', if_exists: 'maybe' }).expect(422);
    expect(wrongType.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'metadata'],
      ['body', 'if_exists'],
    ]);
    await call('post', '/threads/search').send({ limit: 0 }).expect(422);
    await call('post', '/threads/search').send({ sort_by: 'name' }).expect(422);
    await call('post', '/threads/search').send({ ids: ['x'] }).expect(422);
    await call('post', '/threads/search').send({ extract: { last: 'values..x' } }).expect(400);
    await call('post', '/threads/prune').send({}).expect(422);
    await call('post', '/threads').set('Content-Type', 'application/json').send('{"broken').expect(422);
    const id = randomUUID();
    for (const path of [`/threads/${id}`, `/threads/${id}/state`, `/threads/${id}/history`, `/threads/${id}/state/${randomUUID()}`]) {
      expect((await call('get', path).expect(404)).body).toEqual({ detail: `Thread with ID ${id} not found` });
    }
    await call('post', `/threads/${id}/state`).send({ values: {} }).expect(404);
    await call('get', `/threads/${id}/state/not-a-checkpoint`).expect(422);
    await call('post', `/threads/${id}/state`).send({ values: 'text' }).expect(422);
  });

  it('searches with filters, sort, paging headers, select and extract, and counts', async () => {
    const tag = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('post', '/threads').send({ metadata: { tag, graph_id: 'chat', i } }).expect(200)).body.thread_id);
    await t.run(ids[1]!, 'chat', { messages: [{ role: 'user', content: 'needle' }] });

    const page = await call('post', '/threads/search').send({ metadata: { tag }, limit: 2, offset: 0 }).expect(200);
    expect(page.body.map((x: { thread_id: string }) => x.thread_id)).toEqual([ids[2], ids[1]]);
    expect(page.headers['x-pagination-total']).toBe('3');
    expect(page.headers['x-pagination-next']).toBe('2');
    const last = await call('post', '/threads/search').send({ metadata: { tag }, limit: 2, offset: 2 }).expect(200);
    expect(last.body.map((x: { thread_id: string }) => x.thread_id)).toEqual([ids[0]]);
    expect(last.headers['x-pagination-next']).toBeUndefined();

    const asc = await call('post', '/threads/search').send({ metadata: { tag }, sort_by: 'created_at', sort_order: 'asc', select: ['thread_id', 'metadata'] });
    expect(asc.body).toEqual(ids.map((id, i) => ({ thread_id: id, metadata: { tag, graph_id: 'chat', i } })));

    const byValues = await call('post', '/threads/search')
      .send({ values: { messages: [{ content: 'needle' }] }, select: ['thread_id'], extract: { last: 'values.messages[-1].content', missing: 'values.nope' } })
      .expect(200);
    expect(byValues.body).toEqual([{ thread_id: ids[1], extracted: { last: 'echo: needle', missing: null } }]);
    const byIds = await call('post', '/threads/search').send({ ids: [ids[0], ids[2]], sort_order: 'asc' }).expect(200);
    expect(byIds.body.map((x: { thread_id: string }) => x.thread_id)).toEqual([ids[0], ids[2]]);

    expect((await call('post', '/threads/count').send({ metadata: { tag } }).expect(200)).body).toBe(3);
    expect((await call('post', '/threads/count').send({ metadata: { tag }, status: 'busy' }).expect(200)).body).toBe(0);
  });

  it('reads, updates and lists state, with select, and refuses updates while busy or without a graph', async () => {
    const id: string = (await call('post', '/threads').send({ metadata: { graph_id: 'chat' } }).expect(200)).body.thread_id;
    await t.run(id, 'chat', { messages: [{ role: 'user', content: 'hi' }] });

    const state = await call('get', `/threads/${id}/state`).expect(200);
    expect(state.body).toMatchObject({ next: [], tasks: [], checkpoint: { thread_id: id, checkpoint_ns: '' }, values: { messages: [{ type: 'human' }, { type: 'ai' }] } });
    const picked = await call('get', `/threads/${id}/state?select=values.messages&select=next`).expect(200);
    expect(picked.body).toEqual({ values: { messages: state.body.values.messages }, next: [] });

    const update = await call('post', `/threads/${id}/state`).send({ values: { messages: [{ role: 'user', content: 'more' }] }, as_node: 'agent' }).expect(200);
    expect(update.body).toEqual({ checkpoint: { thread_id: id, checkpoint_ns: '', checkpoint_id: expect.any(String) } });
    const at = await call('get', `/threads/${id}/state/${update.body.checkpoint.checkpoint_id}`).expect(200);
    expect(at.body.values.messages.map((m: { content: string }) => m.content)).toEqual(['hi', 'echo: hi', 'more']);
    const viaBody = await call('post', `/threads/${id}/state/checkpoint`).send({ checkpoint: { thread_id: id, checkpoint_id: state.body.checkpoint.checkpoint_id } });
    expect(viaBody.body).toEqual(state.body);
    expect((await call('get', `/threads/${id}`).expect(200)).body.values).toEqual(at.body.values);

    await call('post', `/threads/${id}/state`).send({ values: { messages: [] }, as_node: 'nowhere' }).expect(400);
    await call('patch', `/threads/${id}/state`).send({ metadata: { reviewed: true } }).expect(204);

    const history = await call('get', `/threads/${id}/history?limit=2`).expect(200);
    expect(history.body.map((s: { checkpoint: { checkpoint_id: string } }) => s.checkpoint.checkpoint_id)).toEqual([
      update.body.checkpoint.checkpoint_id,
      state.body.checkpoint.checkpoint_id,
    ]);
    expect(history.body[0].metadata).toMatchObject({ source: 'update', reviewed: true });
    const older = await call('post', `/threads/${id}/history`)
      .send({ limit: 10, before: { configurable: { checkpoint_id: state.body.checkpoint.checkpoint_id } }, select: ['checkpoint'] })
      .expect(200);
    expect(older.body).toHaveLength(2);
    expect(Object.keys(older.body[0])).toEqual(['checkpoint']);
    const inputs = await call('post', `/threads/${id}/history`).send({ metadata: { source: 'input' } }).expect(200);
    expect(inputs.body).toHaveLength(1);

    await t.threads.setStatus(id, 'busy');
    const busy = await call('post', `/threads/${id}/state`).send({ values: { messages: [] }, as_node: 'agent' }).expect(409);
    expect(busy.body.detail).toMatch(/busy/);

    const bare: string = (await call('post', '/threads').send({}).expect(200)).body.thread_id;
    expect((await call('get', `/threads/${bare}/state`).expect(200)).body).toMatchObject({ values: {}, next: [], tasks: [] });
    expect((await call('get', `/threads/${bare}/history`).expect(200)).body).toEqual([]);
    const noGraph = await call('post', `/threads/${bare}/state`).send({ values: { a: 1 } }).expect(400);
    expect(noGraph.body.detail).toMatch(/no graph/);
  });

  it('creates threads from supersteps and prunes threads', async () => {
    const made = await call('post', '/threads')
      .send({ metadata: { graph_id: 'chat' }, supersteps: [{ updates: [{ values: { messages: [{ role: 'user', content: 'seed' }] }, as_node: '__start__' }] }] })
      .expect(200);
    expect(made.body.values.messages).toEqual([expect.objectContaining({ type: 'human', content: 'seed' })]);
    expect((await call('get', `/threads/${made.body.thread_id}/state`).expect(200)).body.next).toEqual(['agent']);
    await call('post', '/threads').send({ supersteps: [{ updates: [{ values: {}, as_node: 'agent' }] }] }).expect(400);

    const id: string = (await call('post', '/threads').send({ metadata: { graph_id: 'chat' } }).expect(200)).body.thread_id;
    await t.run(id, 'chat', { messages: [{ role: 'user', content: '1' }] });
    await t.run(id, 'chat', { messages: [{ role: 'user', content: '2' }] });
    const pruned = await call('post', '/threads/prune').send({ thread_ids: [id], strategy: 'keep_latest' }).expect(200);
    expect(pruned.body).toEqual({ pruned_count: 1 });
    expect((await call('get', `/threads/${id}/history`).expect(200)).body).toHaveLength(1);
    expect((await call('post', '/threads/prune').send({ thread_ids: [id, made.body.thread_id, randomUUID()] }).expect(200)).body).toEqual({ pruned_count: 2 });
    await call('get', `/threads/${id}`).expect(404);
  });
});
