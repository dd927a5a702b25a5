import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '@platform/errors';
import { parseAccessFilter } from '../access-filter';
import { openAgentServerDatabase, type AgentServerDatabase } from '../agent-server-database';
import { openTestAgentServerDatabase, type TestAgentServerDatabase } from '../agent-server-database.testing';
import { createAssistantRepository, type AssistantRepository } from './assistants.repository';
import { systemAssistantId } from './system-assistant-id';

describe('assistants repository', () => {
  let database: TestAgentServerDatabase;
  let assistants: AssistantRepository;
  const replicas: AgentServerDatabase[] = [];

  beforeAll(async () => {
    database = await openTestAgentServerDatabase();
    assistants = createAssistantRepository(database.db.prisma);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await database?.close();
  });

  // Another client on the same database (a second replica) when on Postgres; the same one on PGlite.
  const openReplica = async () => {
    if (!database.url) return assistants;
    const replica = await openAgentServerDatabase({ url: database.url, dataDir: '' });
    replicas.push(replica);
    return createAssistantRepository(replica.prisma);
  };

  const insert = (fields: { graph_id?: string; name?: string; metadata?: Record<string, unknown>; assistant_id?: string } = {}) =>
    assistants.insert({ assistant_id: fields.assistant_id ?? randomUUID(), graph_id: fields.graph_id ?? 'chat', name: fields.name ?? 'A', metadata: fields.metadata });

  it('creates an assistant with version 1 and refuses to overwrite a taken id', async () => {
    const id = randomUUID();
    const first = await assistants.insert({ assistant_id: id, graph_id: 'chat', name: 'Helper', config: { configurable: { model: 'x' } }, metadata: { team: 'a' } });
    expect(first.created).toBe(true);
    expect(first.assistant).toEqual({
      assistant_id: id,
      graph_id: 'chat',
      name: 'Helper',
      description: null,
      config: { configurable: { model: 'x' } },
      context: {},
      metadata: { team: 'a' },
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await assistants.versions(id, { limit: 10, offset: 0 })).toEqual([
      expect.objectContaining({ assistant_id: id, version: 1, name: 'Helper', config: { configurable: { model: 'x' } } }),
    ]);

    const again = await assistants.insert({ assistant_id: id.toUpperCase(), graph_id: 'research', name: 'Other' });
    expect(again).toEqual({ assistant: first.assistant, created: false });
  });

  it('resolves ids in any case and graph ids to their system assistant, else NotFoundError', async () => {
    const { assistant } = await insert();
    expect((await assistants.resolve(assistant.assistant_id.toUpperCase())).assistant_id).toBe(assistant.assistant_id);

    await assistants.insert({ assistant_id: systemAssistantId('research'), graph_id: 'research', name: 'research' });
    expect((await assistants.resolve('research')).assistant_id).toBe(systemAssistantId('research'));

    // Worded as LangGraph's API server words it.
    await expect(assistants.resolve('nope')).rejects.toThrow(new NotFoundError('Assistant not found'));
    await expect(assistants.get(randomUUID())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('searches by metadata containment, graph, name substring; sorts, pages and counts', async () => {
    const tag = randomUUID();
    const made = [];
    for (const [i, name] of ['Alpha bot', 'beta BOT', 'gamma', '100%_done'].entries()) {
      made.push((await insert({ name, graph_id: i % 2 ? 'research' : 'chat', metadata: { tag, nested: { rank: i }, odd: i % 2 === 1 } })).assistant);
    }

    const byTag = await assistants.search({ metadata: { tag }, limit: 10, offset: 0 });
    expect(byTag.map((a) => a.name)).toEqual(['100%_done', 'gamma', 'beta BOT', 'Alpha bot']);
    expect((await assistants.search({ metadata: { tag, nested: { rank: 2 } }, limit: 10, offset: 0 })).map((a) => a.name)).toEqual(['gamma']);
    expect((await assistants.search({ metadata: { tag }, graph_id: 'research', limit: 10, offset: 0 })).map((a) => a.name)).toEqual(['100%_done', 'beta BOT']);
    expect((await assistants.search({ metadata: { tag }, name: 'BoT', limit: 10, offset: 0 })).map((a) => a.name)).toEqual(['beta BOT', 'Alpha bot']);
    // LIKE wildcards in the name are taken literally.
    expect((await assistants.search({ metadata: { tag }, name: '%_', limit: 10, offset: 0 })).map((a) => a.name)).toEqual(['100%_done']);
    const page = await assistants.search({ metadata: { tag }, sortBy: 'name', sortOrder: 'asc', limit: 2, offset: 1 });
    expect(page.map((a) => a.name)).toEqual(['Alpha bot', 'beta BOT']);

    expect(await assistants.count({ metadata: { tag } })).toBe(4);
    expect(await assistants.count({ metadata: { tag, odd: true } })).toBe(2);
    expect(await assistants.count({ metadata: { tag }, name: 'zzz' })).toBe(0);
  });

  it('saves every update as a new version: config replaced, metadata merged; setLatest goes back', async () => {
    const { assistant } = await assistants.insert({ assistant_id: randomUUID(), graph_id: 'chat', name: 'v1', config: { tags: ['a'] }, metadata: { a: 1 } });
    const id = assistant.assistant_id;

    const v2 = await assistants.update(id, { name: 'v2', config: { recursion_limit: 5 }, metadata: { b: 2 }, description: 'second' });
    expect(v2).toMatchObject({ version: 2, name: 'v2', config: { recursion_limit: 5 }, metadata: { a: 1, b: 2 }, description: 'second' });
    expect(Date.parse(v2.updated_at)).toBeGreaterThanOrEqual(Date.parse(assistant.updated_at));
    const v3 = await assistants.update(id, { context: { user: 'ada' }, graph_id: 'research', metadata: { a: 3 } });
    expect(v3).toMatchObject({ version: 3, name: 'v2', graph_id: 'research', context: { user: 'ada' }, metadata: { a: 3, b: 2 } });

    expect((await assistants.versions(id, { limit: 10, offset: 0 })).map((v) => [v.version, v.name, v.graph_id])).toEqual([
      [3, 'v2', 'research'],
      [2, 'v2', 'chat'],
      [1, 'v1', 'chat'],
    ]);
    expect((await assistants.versions(id, { metadata: { b: 2 }, limit: 10, offset: 0 })).map((v) => v.version)).toEqual([3, 2]);
    expect((await assistants.versions(id, { limit: 1, offset: 1 })).map((v) => v.version)).toEqual([2]);

    const back = await assistants.setLatest(id, 1);
    expect(back).toMatchObject({ version: 1, name: 'v1', graph_id: 'chat', config: { tags: ['a'] }, metadata: { a: 1 }, description: null, context: {} });
    // The next update still gets a fresh number.
    expect((await assistants.update(id, { name: 'v4' })).version).toBe(4);
    await expect(assistants.setLatest(id, 99)).rejects.toThrow(new NotFoundError('Assistant version not found'));
    await expect(assistants.update(randomUUID(), { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('numbers concurrent updates one after another, from any replica', async () => {
    const { assistant } = await insert();
    const replica = await openReplica();
    const updates = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? replica : assistants).update(assistant.assistant_id, { metadata: { [`k${i}`]: i } })),
    );
    expect(updates.map((a) => a.version).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7]);
    const latest = await assistants.get(assistant.assistant_id);
    expect(latest.version).toBe(7);
    expect(Object.keys(latest.metadata).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
  });

  it('skips an update that changes nothing when asked to', async () => {
    const { assistant } = await assistants.insert({ assistant_id: randomUUID(), graph_id: 'chat', name: 'same', config: { configurable: { a: 1, b: 2 } } });
    const unchanged = await assistants.update(assistant.assistant_id, { config: { configurable: { b: 2, a: 1 } }, name: 'same' }, { skipIfUnchanged: true });
    expect(unchanged).toEqual(assistant);
    expect((await assistants.update(assistant.assistant_id, { name: 'same' })).version).toBe(2);
  });

  it('deletes an assistant with its versions', async () => {
    const { assistant } = await insert();
    await assistants.update(assistant.assistant_id, { name: 'B' });
    await assistants.delete(assistant.assistant_id);
    expect(await assistants.find(assistant.assistant_id)).toBeNull();
    expect(await assistants.versions(assistant.assistant_id, { limit: 10, offset: 0 })).toEqual([]);
    await expect(assistants.delete(assistant.assistant_id)).rejects.toThrow(new NotFoundError('Assistant not found'));
  });
  it("applies the caller's filter (the deployment's auth) to reads, searches, counts and versions, in SQL", async () => {
    const team = randomUUID();
    const ann = parseAccessFilter({ owner: 'ann' });
    const mine = (await insert({ metadata: { team, owner: 'ann' } })).assistant;
    const theirs = (await insert({ metadata: { team, owner: 'bob' } })).assistant;

    expect(await assistants.get(mine.assistant_id, ann)).toEqual(mine);
    await expect(assistants.get(theirs.assistant_id, ann)).rejects.toThrow(new NotFoundError('Assistant not found'));
    await expect(assistants.resolve(theirs.assistant_id, ann)).rejects.toThrow(NotFoundError);
    expect(await assistants.find(theirs.assistant_id, ann)).toBeNull();
    expect((await assistants.search({ metadata: { team }, limit: 10, offset: 0 }, ann)).map((a) => a.assistant_id)).toEqual([mine.assistant_id]);
    expect(await assistants.count({ metadata: { team } }, ann)).toBe(1);
    expect(await assistants.count({ metadata: { team } })).toBe(2);

    await assistants.update(mine.assistant_id, { metadata: { owner: 'bob' } });
    expect((await assistants.versions(mine.assistant_id, { limit: 10, offset: 0 }, ann)).map((v) => v.version)).toEqual([1]);
    // An id someone else holds is taken, and says nothing of that assistant.
    await expect(assistants.insert({ assistant_id: theirs.assistant_id, graph_id: 'chat', name: 'A' }, ann)).rejects.toThrow(ConflictError);
  });
});
