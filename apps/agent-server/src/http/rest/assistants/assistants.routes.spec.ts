import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { systemAssistantId } from '@platform/agent-server-assistants';
import { gatewayHeaders, startTestAssistantsApp, type TestAssistantsApp } from './assistants-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describe('assistants routes', () => {
  let t: TestAssistantsApp;
  const as = (req: request.Test) => req.set(gatewayHeaders());

  beforeAll(async () => {
    t = await startTestAssistantsApp();
  });
  afterAll(() => t?.close());

  it('needs the gateway signature', async () => {
    await request(t.app).post('/assistants/search').send({}).expect(401);
  });

  it('serves each graph as a system assistant, by assistant id or graph id', async () => {
    const byGraph = await as(request(t.app).get('/assistants/chat')).expect(200);
    expect(byGraph.body).toEqual({
      assistant_id: systemAssistantId('chat'),
      graph_id: 'chat',
      name: 'chat',
      description: 'Says hi',
      config: { configurable: { temperature: 0 } },
      context: {},
      metadata: { created_by: 'system' },
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await as(request(t.app).get(`/assistants/${systemAssistantId('chat')}`)).expect(200, byGraph.body);
    const missing = await as(request(t.app).get('/assistants/ghost')).expect(404);
    // Worded as LangGraph's API server words it (the SDK shows it to users).
    expect(missing.body).toEqual({ detail: 'Assistant not found' });
  });

  it('creates assistants: 404 for an unknown graph, 409 for a taken id unless do_nothing, 422 for bad input', async () => {
    const assistantId = randomUUID();
    const body = { assistant_id: assistantId, graph_id: 'research', name: 'Researcher', description: null, config: { recursion_limit: 8 }, context: { model: 'big' }, metadata: { team: 'x' } };
    const created = await as(request(t.app).post('/assistants')).send(body).expect(200);
    expect(created.body).toMatchObject({ assistant_id: assistantId, graph_id: 'research', name: 'Researcher', description: null, version: 1, config: { recursion_limit: 8 }, context: { model: 'big' } });

    expect((await as(request(t.app).post('/assistants')).send(body).expect(409)).body).toEqual({ detail: 'Assistant already exists' });
    await as(request(t.app).post('/assistants')).send({ ...body, name: 'other', if_exists: 'do_nothing' }).expect(200, created.body);
    expect((await as(request(t.app).post('/assistants')).send({ graph_id: 'ghost' }).expect(404)).body).toEqual({ detail: "Graph 'ghost' not found" });

    const invalid = await as(request(t.app).post('/assistants')).send({ assistant_id: 'nope', if_exists: 'sometimes' }).expect(422);
    expect(invalid.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual(
      expect.arrayContaining([['body', 'assistant_id'], ['body', 'graph_id'], ['body', 'if_exists']]),
    );
  });

  it('searches by metadata, graph and name with pagination headers, select and sorting; counts', async () => {
    const tag = randomUUID();
    for (const name of ['one', 'two', 'three']) {
      await as(request(t.app).post('/assistants')).send({ graph_id: 'chat', name, metadata: { tag } }).expect(200);
    }
    const first = await as(request(t.app).post('/assistants/search')).send({ metadata: { tag }, limit: 2 }).expect(200);
    expect(first.body.map((a: { name: string }) => a.name)).toEqual(['three', 'two']);
    expect(first.headers['x-pagination-total']).toBe('3');
    expect(first.headers['x-pagination-next']).toBe('2');
    const last = await as(request(t.app).post('/assistants/search')).send({ metadata: { tag }, limit: 2, offset: 2 }).expect(200);
    expect(last.body.map((a: { name: string }) => a.name)).toEqual(['one']);
    expect(last.headers['x-pagination-next']).toBeUndefined();

    const selected = await as(request(t.app).post('/assistants/search'))
      .send({ metadata: { tag }, name: 'T', sort_by: 'name', sort_order: 'asc', select: ['name', 'version'] })
      .expect(200);
    expect(selected.body).toEqual([
      { name: 'three', version: 1 },
      { name: 'two', version: 1 },
    ]);
    const systemOnly = await as(request(t.app).post('/assistants/search')).send({ metadata: { created_by: 'system' }, graph_id: 'research' }).expect(200);
    expect(systemOnly.body.map((a: { assistant_id: string }) => a.assistant_id)).toEqual([systemAssistantId('research')]);

    await as(request(t.app).post('/assistants/count')).send({ metadata: { tag } }).expect(200, '3');
    await as(request(t.app).post('/assistants/count')).send({ metadata: { tag }, name: 'ONE' }).expect(200, '1');
    const bad = await as(request(t.app).post('/assistants/search')).send({ limit: 0, sort_by: 'colour', select: ['secret'] }).expect(422);
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['body', 'limit'], ['body', 'sort_by'], ['body', 'select', 0]]);
  });

  it('patches as new versions, lists versions and sets the latest one', async () => {
    const { body: assistant } = await as(request(t.app).post('/assistants')).send({ graph_id: 'chat', name: 'v1', metadata: { a: 1 } }).expect(200);
    const path = `/assistants/${assistant.assistant_id}`;

    const patched = await as(request(t.app).patch(path)).send({ name: 'v2', metadata: { b: 2 }, config: { tags: ['x'] } }).expect(200);
    expect(patched.body).toMatchObject({ version: 2, name: 'v2', metadata: { a: 1, b: 2 }, config: { tags: ['x'] } });
    await as(request(t.app).patch(path)).send({ graph_id: 'ghost' }).expect(404);

    const versions = await as(request(t.app).post(`${path}/versions`)).send({}).expect(200);
    expect(versions.body.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
      [2, 'v2'],
      [1, 'v1'],
    ]);
    expect(versions.body[0]).not.toHaveProperty('updated_at');
    const filtered = await as(request(t.app).post(`${path}/versions`)).send({ metadata: { b: 2 }, limit: 5 }).expect(200);
    expect(filtered.body.map((v: { version: number }) => v.version)).toEqual([2]);

    await as(request(t.app).post(`${path}/latest`)).send({ version: 1 }).expect(200);
    expect((await as(request(t.app).get(path)).expect(200)).body).toMatchObject({ version: 1, name: 'v1', metadata: { a: 1 }, config: {} });
    await as(request(t.app).post(`${path}/latest`)).send({ version: 7 }).expect(404);
    await as(request(t.app).post(`${path}/latest`)).send({ version: 'one' }).expect(422);
    await as(request(t.app).post(`/assistants/${randomUUID()}/versions`)).send({}).expect(404);
  });

  it('deletes an assistant, with its threads when asked', async () => {
    const { body: assistant } = await as(request(t.app).post('/assistants')).send({ graph_id: 'chat' }).expect(200);
    const own = await t.threads.create({ metadata: { assistant_id: assistant.assistant_id } });
    const other = await t.threads.create({ metadata: { assistant_id: randomUUID() } });

    await as(request(t.app).delete(`/assistants/${assistant.assistant_id}?delete_threads=true`)).expect(204);
    await as(request(t.app).get(`/assistants/${assistant.assistant_id}`)).expect(404);
    expect(await t.threads.find(own.thread_id)).toBeNull();
    expect(await t.threads.find(other.thread_id)).not.toBeNull();
    await as(request(t.app).delete(`/assistants/${assistant.assistant_id}`)).expect(404);
  });

  it('draws the graph, with xray as a flag or a depth', async () => {
    const plain = await as(request(t.app).get('/assistants/research/graph')).expect(200);
    expect(plain.body.nodes.map((n: { id: string }) => n.id)).toEqual(['__start__', 'dig', 'answer', '__end__']);
    expect(plain.body.edges).toEqual(expect.arrayContaining([{ source: 'dig', target: 'answer', conditional: false }]));
    for (const xray of ['true', '1']) {
      const deep = await as(request(t.app).get(`/assistants/research/graph?xray=${xray}`)).expect(200);
      expect(deep.body.nodes.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining(['dig:search', 'dig:summarise']));
    }
    await as(request(t.app).get('/assistants/research/graph?xray=maybe')).expect(422);
  });

  it('gives the schemas, the context schema from the graph', async () => {
    const { body } = await as(request(t.app).get('/assistants/research/schemas')).expect(200);
    // Its zod context is its only runtime schema; its Annotation state is typed in no source (built in memory).
    expect(Object.keys(body).sort()).toEqual(['config_schema', 'context_schema', 'graph_id']);
    expect(body).toMatchObject({
      graph_id: 'research',
      context_schema: { type: 'object', properties: { model: { type: 'string', description: 'The model to ask' } }, required: ['model'] },
    });
    expect(body.config_schema).toEqual(body.context_schema);
  });

  it('lists subgraphs, all or by namespace', async () => {
    const all = await as(request(t.app).get('/assistants/research/subgraphs')).expect(200);
    expect(all.body).toEqual({ dig: {} });
    const one = await as(request(t.app).get('/assistants/research/subgraphs/dig?recurse=true')).expect(200);
    expect(Object.keys(one.body)).toEqual(['dig']);
    await as(request(t.app).get('/assistants/research/subgraphs/elsewhere')).expect(200, {});
    await as(request(t.app).get('/assistants/chat/subgraphs')).expect(200, {});
  });
});
