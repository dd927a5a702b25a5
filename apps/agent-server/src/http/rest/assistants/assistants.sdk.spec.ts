import { Client } from '@langchain/langgraph-sdk';
import { RemoteGraph } from '@langchain/langgraph/remote';
import { systemAssistantId } from '@platform/agent-server-assistants';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { gatewayHeaders, startTestAssistantsApp, type TestAssistantsApp } from './assistants-app.testing';

describe('the official JS SDK (@langchain/langgraph-sdk) against the assistants routes', () => {
  let t: TestAssistantsApp;
  let server: RunningHttpServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestAssistantsApp();
    server = await startHttpServer(t.app, '127.0.0.1', 0);
    client = new Client({ apiUrl: server.url, apiKey: null, defaultHeaders: gatewayHeaders(), callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server?.close(1_000);
    await t?.close();
  });

  it('creates, reads, updates, versions and deletes assistants', async () => {
    const assistant = await client.assistants.create({ graphId: 'chat', name: 'SDK bot', metadata: { via: 'sdk' }, context: { tone: 'warm' } });
    expect(assistant).toMatchObject({ graph_id: 'chat', name: 'SDK bot', version: 1, metadata: { via: 'sdk' }, context: { tone: 'warm' } });
    expect(await client.assistants.get(assistant.assistant_id)).toEqual(assistant);
    await expect(client.assistants.create({ graphId: 'chat', assistantId: assistant.assistant_id })).rejects.toMatchObject({ status: 409 });
    expect(await client.assistants.create({ graphId: 'chat', assistantId: assistant.assistant_id, ifExists: 'do_nothing' })).toEqual(assistant);

    const updated = await client.assistants.update(assistant.assistant_id, { name: 'SDK bot 2', config: { configurable: { temperature: 1 } } });
    expect(updated).toMatchObject({ version: 2, name: 'SDK bot 2', config: { configurable: { temperature: 1 } }, metadata: { via: 'sdk' } });
    const versions = await client.assistants.getVersions(assistant.assistant_id);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(await client.assistants.setLatest(assistant.assistant_id, 1)).toMatchObject({ version: 1, name: 'SDK bot' });

    await client.assistants.delete(assistant.assistant_id);
    await expect(client.assistants.get(assistant.assistant_id)).rejects.toMatchObject({ status: 404 });
  });

  it('searches with pagination and counts', async () => {
    for (const name of ['a', 'b', 'c']) await client.assistants.create({ graphId: 'research', name, metadata: { batch: 'sdk-search' } });

    const page = await client.assistants.search({ metadata: { batch: 'sdk-search' }, limit: 2, includePagination: true });
    expect(page.assistants.map((a) => a.name)).toEqual(['c', 'b']);
    expect(page.next).toBe('2');
    const rest = await client.assistants.search({ metadata: { batch: 'sdk-search' }, limit: 2, offset: 2, includePagination: true });
    expect(rest).toMatchObject({ assistants: [expect.objectContaining({ name: 'a' })], next: null });
    expect(await client.assistants.search({ graphId: 'research', metadata: { created_by: 'system' } })).toEqual([
      expect.objectContaining({ assistant_id: systemAssistantId('research'), name: 'research' }),
    ]);
    expect(await client.assistants.search({ metadata: { batch: 'sdk-search' }, sortBy: 'name', sortOrder: 'asc', select: ['name'] })).toEqual([
      { name: 'a' },
      { name: 'b' },
      { name: 'c' },
    ]);
    expect(await client.assistants.count({ metadata: { batch: 'sdk-search' } })).toBe(3);
    expect(await client.assistants.count({ graphId: 'chat', name: 'nothing like this' })).toBe(0);
  });

  it('introspects graphs: drawing, schemas and subgraphs', async () => {
    const drawing = await client.assistants.getGraph('research', { xray: true });
    expect(drawing.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['dig:search', 'answer']));
    const schemas = await client.assistants.getSchemas(systemAssistantId('research'));
    expect(schemas).toMatchObject({ graph_id: 'research', context_schema: { properties: { model: { type: 'string' } } } });
    expect(Object.keys(await client.assistants.getSubgraphs('research', { recurse: true }))).toEqual(['dig']);
    expect(Object.keys(await client.assistants.getSubgraphs('research', { namespace: 'dig' }))).toEqual(['dig']);
  });

  it('serves RemoteGraph its drawing', async () => {
    const remote = new RemoteGraph({ graphId: 'research', client });
    const drawing = await remote.getGraphAsync({ xray: true });
    expect(Object.keys(drawing.nodes)).toEqual(expect.arrayContaining(['dig:search', 'dig:summarise', 'answer']));
  });
});
