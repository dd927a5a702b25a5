import { randomUUID } from 'node:crypto';
import { Client } from '@langchain/langgraph-sdk';
import { RemoteGraph } from '@langchain/langgraph/remote';
import { readSseData, within } from '@platform/testing';
import { startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

type Json = Record<string, unknown>;
type ProtocolEvent = { type: string; seq: number; event_id: string; method: string; params: { namespace: string[]; node?: string; data: Json } };
const message = (content: string) => ({ messages: [{ role: 'user', content }] });
const contents = (values: unknown) => ((values as { messages?: { content: unknown }[] } | undefined)?.messages ?? []).map((m) => m.content);

/** Reads a `/stream/events` SSE body until `stop` holds (or it ends), as protocol events. */
const readEvents = (response: Response, stop: (events: ProtocolEvent[]) => boolean) => readSseData<ProtocolEvent>(response, stop);

// Nodes that return messages show as task namespaces too (`step1:<task id>`), as in LangGraph's own protocol: the root's and
// the subgraphs' events are what these tests look at.
const withoutTasks = (events: ProtocolEvent[]) => events.filter((e) => e.method !== 'lifecycle' || e.params.namespace.length === 0 || e.params.data['graph_name'] === 'child');
const rootEnd = (events: ProtocolEvent[]) =>
  events.some((e) => e.method === 'lifecycle' && e.params.namespace.length === 0 && ['completed', 'failed', 'interrupted'].includes(String(e.params.data['event'])));

/**
 * SDK 1.15's thread-centric streaming (`client.threads.stream()`, `RemoteGraph.streamEvents(..., {version: "v3"})`)
 * against the whole server: commands start and resume runs, the event stream replays and follows the thread's runs
 * from the durable event log, numbered per thread.
 */
describe('thread streaming protocol through the official SDK', () => {
  let running: TestAgentServer;
  let client: Client;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${running.server.url}${path}`, {
      method: 'POST',
      headers: { ...running.headers, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    running = await startTestAgentServer({ env: { SSE_HEARTBEAT_INTERVAL: '200ms' } });
    client = new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: running.headers, callerOptions: { maxRetries: 0 } });
  });
  afterAll(() => running?.stop());

  it('runs a graph with client.threads.stream(): values, output, then a second run on the same thread', async () => {
    const thread = client.threads.stream({ assistantId: 'slow' });
    try {
      const seen: unknown[] = [];
      const values = (async () => {
        for await (const value of thread.values) seen.push(contents(value));
      })();
      await thread.run.start({ input: message('hello'), config: { configurable: { delay_ms: 1 } } });
      expect(contents(await within(thread.output))).toEqual(['hello', 'step 1', 'step 2', 'step 3']);
      await within(values);
      expect(seen.at(-1)).toEqual(['hello', 'step 1', 'step 2', 'step 3']);
      // The thread was created by run.start and keeps its state.
      expect(contents((await client.threads.getState(thread.threadId)).values)).toHaveLength(4);
    } finally {
      await thread.close();
    }
    const again = client.threads.stream(thread.threadId, { assistantId: 'slow' });
    try {
      await again.submitRun({ input: message('more'), config: { configurable: { delay_ms: 1 } } });
      expect(contents(await within(again.output))).toEqual(['hello', 'step 1', 'step 2', 'step 3', 'more', 'step 1', 'step 2', 'step 3']);
    } finally {
      await again.close();
    }
  });

  it('streams a graph remotely with RemoteGraph.streamEvents(version v3): lifecycle, updates, subgraphs', async () => {
    const remote = new RemoteGraph({ graphId: 'nested', client });
    const threadId = randomUUID();
    const run = await remote.streamEvents(message('hi'), { version: 'v3', configurable: { thread_id: threadId } });
    const events: ProtocolEvent[] = [];
    try {
      await within(
        (async () => {
          for await (const event of run as AsyncIterable<ProtocolEvent>) {
            events.push(event);
            if (rootEnd(events)) break;
          }
        })(),
      );
      expect(contents(await within(run.output))).toEqual(['hi', 'from the child graph', 'back in the parent']);
    } finally {
      run.abort();
    }
    const methods = new Set(events.map((e) => e.method));
    expect([...methods]).toEqual(expect.arrayContaining(['lifecycle', 'values', 'updates']));
    const lifecycle = withoutTasks(events).filter((e) => e.method === 'lifecycle').map((e) => [e.params.namespace.length, e.params.data['event'], e.params.data['graph_name']]);
    expect(lifecycle).toEqual([
      [0, 'running', 'nested'],
      [1, 'started', 'child'],
      [1, 'completed', 'child'],
      [0, 'completed', 'nested'],
    ]);
    // The SDK merges the connections it rotates through: each event once, whatever their order.
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    const update = events.find((e) => e.method === 'updates' && e.params.namespace.length === 0);
    expect(update?.params.node).toBe('child');
    expect(contents(update?.params.data)).toEqual(['hi', 'from the child graph']);
    expect((update?.params.data['messages'] as Json[])[1]).toEqual({ type: 'ai', content: 'from the child graph', id: expect.any(String) });
  });

  it('reports an interrupt and resumes it with input.respond', async () => {
    const thread = client.threads.stream({ assistantId: 'approval' });
    try {
      await thread.submitRun({ input: message('may I?') });
      await within(thread.output);
      expect(thread.interrupted).toBe(true);
      expect(thread.interrupts).toEqual([expect.objectContaining({ payload: { question: 'Approve?' }, namespace: [] })]);
      const [pending] = thread.interrupts;
      await thread.input.respond({ namespace: [], interrupt_id: pending.interruptId, response: 'yes' });
      // `thread.output` is the first run's; the resuming run is the thread's newest.
      const [resumed] = await client.runs.list(thread.threadId, { limit: 1 });
      await within(client.runs.join(thread.threadId, resumed.run_id));
      expect(contents((await client.threads.getState(thread.threadId)).values)).toEqual(['may I?', 'answer: yes']);
    } finally {
      await thread.close();
    }
  });

  it('resumes after a seq (since, Last-Event-ID) with the same numbering, and answers state.get', async () => {
    const threadId = randomUUID();
    const started = await (await post(`/threads/${threadId}/commands`, { id: 1, method: 'run.start', params: { assistant_id: 'progress', input: message('go') } })).json();
    expect(started).toEqual({ type: 'success', id: 1, result: { run_id: expect.any(String) }, meta: { thread_id: threadId, applied_through_seq: 0 } });
    const channels = ['lifecycle', 'values', 'updates', 'custom'];
    const all = await readEvents(await post(`/threads/${threadId}/stream/events`, { channels }), rootEnd);
    expect(withoutTasks(all).map((e) => e.method)).toEqual(['lifecycle', 'values', 'custom', 'custom', 'custom', 'updates', 'values', 'lifecycle']);
    // The node that returned a message ran as a task namespace of its own.
    expect(all.filter((e) => e.params.namespace.length > 0).map((e) => [e.params.namespace[0].split(':')[0], e.params.data['event']])).toEqual([
      ['work', 'started'],
      ['work', 'completed'],
    ]);
    expect(all.filter((e) => e.method === 'custom').map((e) => e.params.data)).toEqual([1, 2, 3].map((i) => ({ payload: { progress: i, of: 3 } })));
    expect(new Set(all.map((e) => e.event_id)).size).toBe(all.length);

    const cut = all[3].seq;
    const rest = await readEvents(await post(`/threads/${threadId}/stream/events`, { channels, since: cut }), rootEnd);
    expect(rest).toEqual(all.slice(4).map((e) => ({ ...e, params: { ...e.params, timestamp: expect.any(Number) } })));
    const byHeader = await readEvents(await post(`/threads/${threadId}/stream/events`, { channels: ['custom', 'lifecycle'] }, { 'last-event-id': String(cut) }), rootEnd);
    expect(byHeader.map((e) => e.seq)).toEqual(all.slice(4).filter((e) => ['custom', 'lifecycle'].includes(e.method)).map((e) => e.seq));

    const state = await (await post(`/threads/${threadId}/commands`, { id: 2, method: 'state.get', params: { namespace: [], keys: ['messages'] } })).json();
    expect(state).toMatchObject({ type: 'success', id: 2, result: { values: { messages: expect.any(Array) }, checkpoint: { id: expect.any(String) } } });
  });

  it('keeps a stream opened before the thread exists idle, then streams the run that creates it', async () => {
    const threadId = randomUUID();
    const early = await post(`/threads/${threadId}/stream/events`, { channels: ['lifecycle'] });
    expect(early.status).toBe(200);
    const reading = readEvents(early, rootEnd);
    await post(`/threads/${threadId}/commands`, { id: 1, method: 'run.start', params: { assistant_id: 'slow', input: message('late'), config: { configurable: { delay_ms: 1 } } } });
    expect(withoutTasks(await reading).map((e) => e.params.data['event'])).toEqual(['running', 'completed']);
  });

  it('answers protocol errors in the protocol, and bad requests as every route does', async () => {
    const threadId = (await client.threads.create()).thread_id;
    expect(await (await post(`/threads/${threadId}/commands`, { id: 7, method: 'no.such.method', params: {} })).json()).toEqual({
      type: 'error',
      id: 7,
      error: 'unknown_command',
      message: 'Unknown protocol command: no.such.method',
      meta: { thread_id: threadId, applied_through_seq: 0 },
    });
    expect(await (await post(`/threads/${threadId}/commands`, { id: 8, method: 'run.start', params: {} })).json()).toMatchObject({ type: 'error', id: 8, error: 'invalid_argument' });
    const noFrame = await post(`/threads/${threadId}/commands`, { method: 'run.start' });
    expect(noFrame.status).toBe(422);
    expect(await noFrame.json()).toMatchObject({ detail: [expect.objectContaining({ loc: ['body', 'id'] })] });
    expect((await post(`/threads/not-a-uuid/commands`, { id: 1, method: 'run.start', params: {} })).status).toBe(422);
    expect((await post(`/threads/${threadId}/stream/events`, { channels: [] })).status).toBe(422);
    const unknownAssistant = await post(`/threads/${threadId}/commands`, { id: 9, method: 'run.start', params: { assistant_id: 'nope', input: {} } });
    expect(unknownAssistant.status).toBe(404);
  });
});
