import { randomUUID } from 'node:crypto';
import { systemAssistantId } from '@platform/agent-server-data-access';
import { ConflictError, NotFoundError } from '@platform/errors';
import { getAssistantGraph, getAssistantSchemas, getAssistantSubgraphs } from './assistant-graph.usecase';
import { listAssistantVersions, setLatestAssistantVersion } from './assistant-versions.usecase';
import { openAssistantsFixture, type AssistantsFixture } from './assistants.testing';
import { createAssistant } from './create-assistant.usecase';
import { deleteAssistant } from './delete-assistant.usecase';
import { searchAssistants } from './search-assistants.usecase';
import { syncSystemAssistants } from './sync-system-assistants';
import { updateAssistant } from './update-assistant.usecase';

jest.setTimeout(60_000);

describe('assistants use cases', () => {
  let fixture: AssistantsFixture;

  beforeAll(async () => {
    fixture = await openAssistantsFixture();
  });
  afterAll(() => fixture?.close());

  describe('syncSystemAssistants', () => {
    it('gives every graph one system assistant, idempotently, even when replicas start together', async () => {
      const replica = await fixture.openReplica();
      const defaults = { configured: { config: { configurable: { model: 'small' } }, context: { tone: 'dry' } } };
      const [first, second] = await Promise.all([
        syncSystemAssistants(fixture.assistants, fixture.registry, defaults),
        syncSystemAssistants(replica, fixture.registry, defaults),
      ]);
      expect(second).toEqual(first);
      expect(first.map((a) => [a.assistant_id, a.graph_id, a.name, a.version, a.metadata])).toEqual(
        ['chat', 'research', 'configured'].map((graphId) => [systemAssistantId(graphId), graphId, graphId, 1, { created_by: 'system' }]),
      );
      expect(first[0].description).toBe('Says hi');
      expect(first[2]).toMatchObject({ config: { configurable: { model: 'small' } }, context: { tone: 'dry' } });

      expect(await syncSystemAssistants(fixture.assistants, fixture.registry, defaults)).toEqual(first);
      expect(await fixture.assistants.count({ metadata: { created_by: 'system' } })).toBe(3);
    });

    it('applies changed defaults as one new version', async () => {
      const replica = await fixture.openReplica();
      const defaults = { configured: { config: { configurable: { model: 'large' } } } };
      await Promise.all([syncSystemAssistants(fixture.assistants, fixture.registry, defaults), syncSystemAssistants(replica, fixture.registry, defaults)]);

      const configured = await fixture.assistants.resolve('configured');
      expect(configured).toMatchObject({ version: 2, config: { configurable: { model: 'large' } }, context: {} });
      expect((await fixture.assistants.versions(configured.assistant_id, { limit: 10, offset: 0 })).map((v) => v.version)).toEqual([2, 1]);
      expect((await fixture.assistants.resolve('chat')).version).toBe(1);
    });
  });

  describe('create', () => {
    it('creates an assistant of a known graph, named Untitled unless named', async () => {
      const assistant = await createAssistant(fixture, { graph_id: 'chat', metadata: { owner: 'me' } });
      expect(assistant).toMatchObject({ graph_id: 'chat', name: 'Untitled', version: 1, config: {}, context: {}, metadata: { owner: 'me' } });
    });

    it('refuses an unknown graph (404) and a taken id (409) unless if_exists is do_nothing', async () => {
      await expect(createAssistant(fixture, { graph_id: 'nope' })).rejects.toThrow(new NotFoundError("Graph 'nope' not found"));
      const assistantId = randomUUID();
      const created = await createAssistant(fixture, { assistant_id: assistantId, graph_id: 'chat', name: 'first' });
      await expect(createAssistant(fixture, { assistant_id: assistantId, graph_id: 'chat' })).rejects.toBeInstanceOf(ConflictError);
      expect(await createAssistant(fixture, { assistant_id: assistantId, graph_id: 'research', name: 'second', if_exists: 'do_nothing' })).toEqual(created);
    });
  });

  it('updates through a graph id too, and refuses to move to an unknown graph', async () => {
    const updated = await updateAssistant(fixture, 'research', { metadata: { note: 'patched' } });
    expect(updated).toMatchObject({ assistant_id: systemAssistantId('research'), metadata: { created_by: 'system', note: 'patched' } });
    await expect(updateAssistant(fixture, 'research', { graph_id: 'ghost' })).rejects.toThrow("Graph 'ghost' not found");
    await expect(updateAssistant(fixture, randomUUID(), { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists versions and sets the latest one', async () => {
    const assistant = await createAssistant(fixture, { graph_id: 'chat', name: 'one' });
    await updateAssistant(fixture, assistant.assistant_id, { name: 'two' });
    expect((await listAssistantVersions(fixture.assistants, assistant.assistant_id, { limit: 10, offset: 0 })).map((v) => v.name)).toEqual(['two', 'one']);
    expect(await setLatestAssistantVersion(fixture.assistants, assistant.assistant_id, 1)).toMatchObject({ name: 'one', version: 1 });
    await expect(listAssistantVersions(fixture.assistants, randomUUID(), { limit: 10, offset: 0 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('searches with a total for pagination', async () => {
    const tag = randomUUID();
    for (let i = 0; i < 3; i++) await createAssistant(fixture, { graph_id: 'chat', metadata: { tag } });
    const { items, total } = await searchAssistants(fixture.assistants, { metadata: { tag }, limit: 2, offset: 0 });
    expect(items).toHaveLength(2);
    expect(total).toBe(3);
  });

  it('deletes an assistant, and its threads when asked', async () => {
    const assistant = await createAssistant(fixture, { graph_id: 'chat' });
    const threadsDeletedFor: string[] = [];
    const deps = { assistants: fixture.assistants, deleteThreadsOf: async (id: string) => threadsDeletedFor.push(id) };
    await deleteAssistant(deps, assistant.assistant_id, { deleteThreads: true });
    expect(threadsDeletedFor).toEqual([assistant.assistant_id]);
    await expect(deleteAssistant(deps, assistant.assistant_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  describe('graph introspection', () => {
    it('draws the assistant graph, subgraphs inlined with xray', async () => {
      const plain = await getAssistantGraph(fixture, 'research');
      expect(plain.nodes.map((n) => n.id)).toEqual(['__start__', 'dig', 'answer', '__end__']);
      const xray = await getAssistantGraph(fixture, 'research', { xray: true });
      expect(xray.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['dig:search', 'dig:summarise', 'answer']));
    });

    it("builds a factory graph with the assistant's config", async () => {
      const assistant = await createAssistant(fixture, { graph_id: 'configured', config: { configurable: { model: 'tiny' } } });
      expect((await getAssistantGraph(fixture, assistant.assistant_id)).nodes.map((n) => n.id)).toContain('ask_tiny');
    });

    it('gives the schemas with the graph id, and those of subgraphs by namespace', async () => {
      // Graphs built in memory: an Annotation state declares no runtime schema and has no source to read types from.
      expect(await getAssistantSchemas(fixture, 'chat')).toEqual({ graph_id: 'chat' });
      expect(await getAssistantSubgraphs(fixture, 'research')).toEqual({ dig: {} });
      expect(Object.keys(await getAssistantSubgraphs(fixture, 'research'))).toEqual(['dig']);
      expect(await getAssistantSubgraphs(fixture, 'research', { namespace: 'nothing' })).toEqual({});
    });
  });
});
