import path from 'node:path';
import type { Client } from '@langchain/langgraph-sdk';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { contents, deploymentFetch, deploymentFor, FAST_RUN_SETTINGS, userMessage } from './agent-server.e2e.testing';

// The introspection fixture project: an Annotation graph typed in TypeScript (types imported from another file,
// nested subgraphs), zod 3/4 and StateSchema graphs, a graph factory and an untyped JavaScript graph.
const INTROSPECTION_CONFIG = path.resolve(__dirname, '../../../libs/agent-server/graphs/src/introspection/testing/project/langgraph.json');

const keysOf = (schema: unknown) => Object.keys(((schema as { properties?: object } | undefined)?.properties ?? {}) as object);

// The TypeScript compiler reads LangGraph's declarations once for the deployment: tens of seconds on a busy machine.
jest.setTimeout(600_000);

describeWithService('DATABASE_URL', 'Postgres (agent server introspection e2e)')('graph introspection through the gateway (SDK)', () => {
  let platform: TestPlatform;
  let client: Client;
  let call: ReturnType<typeof deploymentFetch>;

  beforeAll(async () => {
    platform = await startTestPlatform({
      langgraphConfigPath: INTROSPECTION_CONFIG,
      agentServerEnv: { ...FAST_RUN_SETTINGS, LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS: '500000' },
    });
    const deployment = await deploymentFor(platform, platform.services['agent-server'].url);
    client = deployment.client;
    call = deploymentFetch(platform, deployment.id);
  });

  afterAll(() => platform?.stop());

  it('answers schemas from TypeScript types for Annotation graphs and from zod at run time', async () => {
    const annotation = await client.assistants.getSchemas('annotation');
    expect(annotation.graph_id).toBe('annotation');
    expect(keysOf(annotation.state_schema)).toEqual(['ticket', 'messages']);
    expect(keysOf(annotation.output_schema)).toEqual(['answer', 'attempts']);
    expect(annotation.config_schema).toMatchObject({ properties: { model: { enum: ['large', 'small'] }, temperature: { type: 'number' } } });
    expect(annotation.context_schema).toEqual(annotation.config_schema);
    expect((annotation.state_schema as { definitions: object }).definitions).toHaveProperty('Priority', { enum: ['high', 'low', 'normal'], type: 'string' });

    expect((await client.assistants.getSchemas('zod3')).state_schema).toMatchObject({ properties: { messages: { langgraph_type: 'messages' } } });
    expect(await client.assistants.getSchemas('zod4')).toEqual({
      graph_id: 'zod4',
      config_schema: expect.objectContaining({ required: ['model'] }),
      context_schema: expect.objectContaining({ required: ['model'] }),
    });
    // No types to read: the graph id alone (the reference answers 500).
    const untyped = await call('/assistants/untyped/schemas');
    expect(untyped.status).toBe(200);
    expect(await untyped.json()).toEqual({ graph_id: 'untyped' });
  });

  it('answers subgraphs with their schemas, recursively and by namespace', async () => {
    // The SDK types these as `*_schema` keys; the reference answers `state`, `input`, `output`, `config`, as we do.
    const direct = (await client.assistants.getSubgraphs('annotation')) as unknown as Record<string, { state?: unknown }>;
    expect(Object.keys(direct)).toEqual(['research']);
    expect(keysOf(direct['research'].state)).toEqual(['topic', 'notes']);
    expect(Object.keys(await client.assistants.getSubgraphs('annotation', { recurse: true }))).toEqual(['research', 'research|digest']);
    expect(Object.keys(await client.assistants.getSubgraphs('annotation', { namespace: 'research' }))).toEqual(['research']);
    expect(await client.assistants.getSubgraphs('zod4')).toEqual({});
  });

  it('draws the graph, the subgraphs’ nodes inside with xray', async () => {
    const ids = async (xray?: boolean | number) => (await client.assistants.getGraph('annotation', xray === undefined ? {} : { xray })).nodes.map((node) => node.id);
    expect(await ids()).toEqual(['__start__', 'triage', 'research', 'reply', '__end__']);
    expect(await ids(true)).toEqual(['__start__', 'triage', 'research:search', 'research:digest', 'reply', '__end__']);
    expect(await ids(1)).toEqual(await ids(true));
  });

  it('builds a graph factory with the assistant’s, the run’s and then the thread’s config: drawing, runs, state updates as a node', async () => {
    const assistant = await client.assistants.create({ graphId: 'factory', config: { configurable: { variant: 'loud' } } });
    expect((await client.assistants.getGraph(assistant.assistant_id)).nodes.map((node) => node.id)).toContain('respond_loud');

    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, assistant.assistant_id, { input: userMessage('hi') });
    expect(contents(values)).toEqual(['hi', 'variant loud']);
    // The thread keeps the config its run started with, so a factory reading it later builds the same graph.
    expect((await client.threads.get(thread.thread_id)).config).toMatchObject({ configurable: { variant: 'loud' } });

    await client.threads.updateState(thread.thread_id, { values: { variant: 'edited' }, asNode: 'respond_loud' });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ variant: 'edited' });
    expect(state.next).toEqual([]);
    expect((await client.threads.getHistory(thread.thread_id)).map((past) => past.metadata?.['source'])).toEqual(['update', 'loop', 'loop', 'input']);

    // The system assistant has no variant: its graph has no such node to write as.
    const plain = await client.threads.create({ graphId: 'factory' });
    await expect(client.threads.updateState(plain.thread_id, { values: { variant: 'x' }, asNode: 'respond_loud' })).rejects.toThrow();
  });
});
