import { Client } from '@langchain/langgraph-sdk';
import { LANGGRAPH_VERSION } from '@platform/agent-server-graphs';
import { startTestAgentServer, type TestAgentServer } from '../../agent-server.testing';

const API_URL = 'https://agents.example.test/deployments/d1';
const message = (content: string) => ({ messages: [{ role: 'user', content }] });
const contents = (values: unknown) => ((values as { messages?: { content: unknown }[] }).messages ?? []).map((m) => m.content);
const fast = { configurable: { delay_ms: 1 } };
const kwargsOf = (run: object) => (run as { kwargs: Record<string, unknown> & { config: { metadata: Record<string, unknown> } } }).kwargs;

/** What runs and their checkpoints record about themselves, as LangGraph's API server writes it (issue 17 §5, §7). */
describe('run and checkpoint metadata through the official SDK (one server, Postgres or PGlite)', () => {
  let running: TestAgentServer;
  let client: Client;

  beforeAll(async () => {
    running = await startTestAgentServer({ env: { LANGGRAPH_API_URL: API_URL } });
    client = new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: running.headers, callerOptions: { maxRetries: 0 } });
  });
  afterAll(() => running?.stop());

  it("gives a run its assistant's, its thread's and its own metadata, in its config too", async () => {
    const thread = await client.threads.create({ metadata: { kind: 'chat' } });
    const system = await client.runs.create(thread.thread_id, 'slow', { input: message('a'), config: fast, metadata: { origin: 'test' } });
    await client.runs.join(thread.thread_id, system.run_id);
    const expected = { created_by: 'system', graph_id: 'slow', assistant_id: system.assistant_id, kind: 'chat', origin: 'test' };
    expect(system.metadata).toEqual(expected);
    expect((await client.runs.get(thread.thread_id, system.run_id)).metadata).toEqual(expected);
    expect(kwargsOf(system).config.metadata).toEqual(expected);
    // Server bookkeeping and absent inputs are not part of a run's kwargs.
    expect(kwargsOf(system)).not.toHaveProperty('on_disconnect');
    expect(kwargsOf(system)).not.toHaveProperty('command');

    const own = await client.assistants.create({ graphId: 'slow', metadata: { team: 'x' } });
    const second = await client.runs.create(thread.thread_id, own.assistant_id, { input: message('b'), config: fast });
    expect(second.metadata).toEqual({ team: 'x', graph_id: 'slow', assistant_id: own.assistant_id, kind: 'chat' });

    // A run that creates its thread (stateless, or `if_not_exists: create`) has no thread metadata to take; the thread
    // is named after the run's graph and carries the request's metadata.
    const stateless = await client.runs.create(null, 'slow', { input: message('c'), config: fast, metadata: { origin: 'solo' } });
    expect(stateless.metadata).toEqual({ created_by: 'system', origin: 'solo' });
    const newThread = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
    const creating = await client.runs.create(newThread, 'slow', { input: message('d'), config: fast, metadata: { origin: 'new' }, ifNotExists: 'create' });
    expect(creating.metadata).toEqual({ created_by: 'system', origin: 'new' });
    await client.runs.join(newThread, creating.run_id);
    expect((await client.threads.get(newThread)).metadata).toEqual({ graph_id: 'slow', assistant_id: creating.assistant_id, origin: 'new' });
  });

  it("writes the run's metadata into every checkpoint it makes, so the history can be searched by it", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, 'slow', { input: message('x'), config: fast, metadata: { origin: 'search-me' } });
    await client.runs.join(thread.thread_id, run.run_id);
    const found = await client.threads.getHistory(thread.thread_id, { metadata: { origin: 'search-me' } });
    expect(found.map((state) => state.metadata?.['step'])).toEqual([3, 2, 1, 0, -1]);
    expect(found[0]!.metadata).toMatchObject({
      origin: 'search-me',
      created_by: 'system',
      graph_id: 'slow',
      assistant_id: run.assistant_id,
      run_id: run.run_id,
      thread_id: thread.thread_id,
      delay_ms: 1,
      run_attempt: 1,
      langgraph_version: LANGGRAPH_VERSION,
      langgraph_plan: 'developer',
      langgraph_host: 'self-hosted',
      langgraph_api_url: API_URL,
      source: 'loop',
    });
    expect(await client.threads.getHistory(thread.thread_id, { metadata: { origin: 'elsewhere' } })).toEqual([]);
  });

  it('answers a run that stopped on an interrupt with its last values event, the interrupts', async () => {
    const thread = await client.threads.create();
    const paused = await client.runs.wait(thread.thread_id, 'approval', { input: message('ship?') });
    expect(paused).toEqual({ __interrupt__: [{ id: expect.any(String), value: { question: 'Approve?' } }] });
    // Stopped before a node: no interrupts raised.
    const before = await client.runs.wait((await client.threads.create()).thread_id, 'slow', { input: message('hold'), config: fast, interruptBefore: ['step2'] });
    expect(before).toEqual({ __interrupt__: [] });
  });

  it('deletes the checkpoints of a deleted run, and the thread shows what is left', async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, 'slow', { input: message('kept'), config: fast });
    const doomed = await client.runs.create(thread.thread_id, 'slow', { input: message('gone'), config: fast });
    await client.runs.join(thread.thread_id, doomed.run_id);
    await client.runs.delete(thread.thread_id, doomed.run_id);
    const history = await client.threads.getHistory(thread.thread_id, { limit: 50 });
    expect(history.every((state) => state.metadata?.['run_id'] !== doomed.run_id)).toBe(true);
    expect(contents((await client.threads.getState(thread.thread_id)).values)).toEqual(['kept', 'step 1', 'step 2', 'step 3']);
    expect(contents((await client.threads.get(thread.thread_id)).values)).toEqual(['kept', 'step 1', 'step 2', 'step 3']);
  });

  it('words errors as LangGraph\'s API server does', async () => {
    const thread = await client.threads.create();
    await expect(client.runs.wait(thread.thread_id, 'nope', { input: message('x') })).rejects.toThrow(
      'No assistant found for \\"nope\\". Make sure the assistant ID is for a valid assistant or a valid graph ID.',
    );
    await expect(client.runs.get(thread.thread_id, '5b2f0e0c-2c71-4d7e-9d0a-3f6f3d5c9e11')).rejects.toThrow('{"detail":"Run not found"}');
    await expect(client.runs.list('5b2f0e0c-2c71-4d7e-9d0a-3f6f3d5c9e11')).rejects.toThrow(
      '{"detail":"Thread with ID 5b2f0e0c-2c71-4d7e-9d0a-3f6f3d5c9e11 not found"}',
    );
  });
});
