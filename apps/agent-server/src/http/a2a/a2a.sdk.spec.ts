import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AgentCard, Message, MessageSendParams, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { RunningService } from '@platform/http-server';
import { startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

// The SDK is an ES module with CommonJS builds; its `exports` give TypeScript only the ESM types.
const { A2AClient } = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });

// The e2e graphs plus `counter`, whose state has no messages (the shared fixture's graph list is asserted elsewhere).
const FIXTURES = path.resolve(__dirname, '../../../e2e/fixtures/a2a-langgraph.json');

type StreamEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

const userMessage = (text: string, extra: Partial<Message> = {}): MessageSendParams => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});

const textsOf = (message: Message | undefined) => (message?.parts ?? []).flatMap((part) => (part.kind === 'text' ? [part.text] : []));

/** The result of a JSON-RPC response, failing the test with the error when there is one. */
function resultOf<T>(response: { result: unknown } | { error: { code: number; message: string } }): T {
  if ('error' in response) throw new Error(`unexpected JSON-RPC error ${response.error.code}: ${response.error.message}`);
  return response.result as T;
}

type RpcError = { code: number; message: string; data?: unknown };

/**
 * The JSON-RPC error a call was answered with. The client returns error responses, except where it fails to
 * recognise them (`instanceof Object` on JSON parsed by Node's fetch, a realm apart from jest's) and throws the
 * error that carries them instead.
 */
async function errorOf(pending: Promise<{ result: unknown } | { error: RpcError }>): Promise<RpcError> {
  let response: { result: unknown } | { error: RpcError };
  try {
    response = await pending;
  } catch (err) {
    const carried = (err as { errorResponse?: { error: RpcError } }).errorResponse;
    if (!carried) throw err;
    response = carried;
  }
  if (!('error' in response)) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(response.result)}`);
  return response.error;
}

/**
 * A2A over the whole agent server on a database of its own, driven by the official A2A client (`@a2a-js/sdk`)
 * with gateway-signed headers.
 */
describe('A2A through the official A2A client', () => {
  let running: TestAgentServer;
  let server: RunningService;
  let headers: Record<string, string>;
  let fetchImpl: typeof fetch;

  const client = (assistantId: string) => A2AClient.fromCardUrl(`${server.url}/.well-known/agent-card.json?assistant_id=${assistantId}`, { fetchImpl });
  const rest = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${server.url}${pathname}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const collect = async (stream: AsyncIterable<StreamEvent>) => {
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return events;
  };

  beforeAll(async () => {
    // Keep-alive newlines every 100 ms: blocking sends to the slow graph get some, and the client must read past them.
    running = await startTestAgentServer({ langgraphConfigPath: FIXTURES, env: { WAIT_KEEPALIVE_INTERVAL: '100ms' } });
    server = running.server;
    headers = running.headers;
    // The gateway would add the signed identity headers; the client's own headers stay as they are.
    fetchImpl = (input, init) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(input, { ...init, headers: merged });
    };
  });
  afterAll(() => running?.stop());

  it('serves an agent card per assistant, with the public URL behind the gateway', async () => {
    const card: AgentCard = await (await client('agent')).getAgentCard();
    const { body: assistant } = await rest('GET', `/assistants/${(card.url.split('/a2a/')[1] ?? '')}`);
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'agent',
      url: `${server.url}/a2a/${assistant['assistant_id'] as string}`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [expect.objectContaining({ id: 'agent-main', tags: expect.arrayContaining(['agent']) })],
    });
    expect(assistant['graph_id']).toBe('agent');
    expect(card.description).toContain('agent');

    const behindGateway = await fetch(`${server.url}/.well-known/agent-card.json?assistant_id=agent`, {
      headers: { ...headers, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com', 'x-forwarded-prefix': '/deployments/d-1' },
    });
    expect(((await behindGateway.json()) as AgentCard).url).toBe(`https://api.example.com/deployments/d-1/a2a/${assistant['assistant_id'] as string}`);

    const missing = await rest('GET', '/.well-known/agent-card.json');
    expect(missing).toEqual({ status: 422, body: { detail: [expect.objectContaining({ loc: ['query', 'assistant_id'], type: 'missing' })] } });
    const unknown = await rest('GET', `/.well-known/agent-card.json?assistant_id=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body['detail']).toEqual(expect.stringContaining('not found'));
  });

  it('answers message/send with the completed task, and continues the thread of its contextId', async () => {
    const agent = await client('agent');
    const first = resultOf<Task>(await agent.sendMessage(userMessage('What is 2 + 3?')));
    expect(first).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(first.artifacts).toEqual([expect.objectContaining({ name: 'Assistant Response', parts: [{ kind: 'text', text: expect.stringContaining('2 + 3 = 5') }] })]);
    expect(first.history?.map((m) => [m.role, textsOf(m).join()])).toEqual([
      ['user', 'What is 2 + 3?'],
      ['agent', expect.stringContaining('2 + 3 = 5')],
    ]);
    expect(first.history?.every((m) => m.contextId === first.contextId && m.taskId === first.id)).toBe(true);

    const second = resultOf<Task>(await agent.sendMessage(userMessage('What is the weather in Paris?', { contextId: first.contextId })));
    expect(second).toMatchObject({ contextId: first.contextId, status: { state: 'completed' } });
    expect(second.id).not.toBe(first.id);
    expect(textsOf(second.status.message)).toEqual([expect.stringContaining('Paris')]);

    const { body: state } = await rest('GET', `/threads/${first.contextId}/state`);
    const humans = (state['values'] as { messages: { type: string; content: string }[] }).messages.filter((m) => m.type === 'human');
    expect(humans.map((m) => m.content)).toEqual(['What is 2 + 3?', 'What is the weather in Paris?']);

    // tasks/get shows the same task, cut to the latest history entries.
    const fetched = resultOf<Task>(await agent.getTask({ id: first.id, historyLength: 1 }));
    expect(fetched).toMatchObject({ id: first.id, contextId: first.contextId, status: { state: 'completed' }, artifacts: first.artifacts });
    expect(fetched.history?.map((m) => m.role)).toEqual(['agent']);

    // A new contextId names a thread that does not exist yet: it is created.
    const contextId = randomUUID();
    expect(resultOf<Task>(await agent.sendMessage(userMessage('hello', { contextId })))).toMatchObject({ contextId, status: { state: 'completed' } });
  });

  it('streams message/stream as the task, working updates, the reply artifact and a final status', async () => {
    const agent = await client('agent');
    const events = await collect(agent.sendMessageStream(userMessage('What is 6 * 7?')));
    const kinds = events.map((e) => (e.kind === 'status-update' ? `${e.kind}:${e.status.state}${e.final ? ':final' : ''}` : e.kind));
    expect(kinds[0]).toBe('task');
    expect(['submitted', 'working']).toContain((events[0] as Task).status.state);
    expect(kinds.at(-1)).toBe('status-update:completed:final');
    expect(kinds.at(-2)).toBe('artifact-update');
    const working = kinds.slice(1, -2);
    expect(working.length).toBeGreaterThan(0);
    expect(new Set(working)).toEqual(new Set(['status-update:working']));

    const task = events[0] as Task;
    expect(events.every((e) => (e.kind === 'task' ? e.id : 'taskId' in e ? e.taskId : undefined) === task.id)).toBe(true);
    // Progress as it happened: the tool call, then the answer.
    const progress = events.flatMap((e) => (e.kind === 'status-update' && !e.final ? textsOf(e.status.message) : []));
    expect(progress).toEqual(expect.arrayContaining([expect.stringContaining('calculator'), expect.stringContaining('6 * 7 = 42')]));
    const artifact = events.at(-2) as TaskArtifactUpdateEvent;
    expect(artifact.artifact).toMatchObject({ name: 'Assistant Response', parts: [{ kind: 'text', text: expect.stringContaining('42') }] });
    expect(resultOf<Task>(await agent.getTask({ id: task.id })).status.state).toBe('completed');
  });

  it('keeps the task working when a stream client goes away, and tasks/resubscribe follows it to the end', async () => {
    const controller = new AbortController();
    const card = await (await client('slow')).getAgentCard();
    const leaving = new A2AClient(card, { fetchImpl: (input, init) => fetchImpl(input, { ...init, signal: controller.signal }) });
    let first: StreamEvent | undefined;
    try {
      for await (const event of leaving.sendMessageStream(userMessage('slowly'))) {
        first = event;
        controller.abort();
      }
    } catch {
      // The aborted body ends the client's stream with an error.
    }
    expect(first).toMatchObject({ kind: 'task' });
    const taskId = (first as Task).id;

    const slow = await client('slow');
    const events = await collect(slow.resubscribeTask({ id: taskId }));
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', taskId, final: true, status: { state: 'completed' } });
    const task = resultOf<Task>(await slow.getTask({ id: taskId }));
    expect(task.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'step 3' }]);
  });

  it('keeps a blocking message/send alive with newlines before the answer', async () => {
    const card = await (await client('slow')).getAgentCard();
    const res = await fetch(card.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'k', method: 'message/send', params: userMessage('patience') }),
    });
    const text = await res.text();
    expect(text).toMatch(/^\n+\{/);
    expect(JSON.parse(text)).toMatchObject({ id: 'k', result: { kind: 'task', status: { state: 'completed' } } });
    const task = resultOf<Task>(await (await client('slow')).sendMessage(userMessage('patience again')));
    expect(task.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'step 3' }]);
  });

  it('asks for input when the graph interrupts, and resumes the task it names', async () => {
    const approval = await client('approval');
    const paused = resultOf<Task>(await approval.sendMessage(userMessage('ship it?')));
    expect(paused.status.state).toBe('input-required');
    expect(textsOf(paused.status.message)).toEqual(['Approve?']);
    expect(paused.status.message?.parts).toContainEqual({ kind: 'data', data: { question: 'Approve?' } });
    expect(resultOf<Task>(await approval.getTask({ id: paused.id })).status.state).toBe('input-required');

    const resumed = resultOf<Task>(await approval.sendMessage(userMessage('yes', { taskId: paused.id, contextId: paused.contextId })));
    expect(resumed).toMatchObject({ contextId: paused.contextId, status: { state: 'completed' } });
    expect(resumed.artifacts?.[0]?.parts).toEqual([{ kind: 'text', text: 'answer: yes' }]);
    // The first task is over once another took its thread on.
    expect(resultOf<Task>(await approval.getTask({ id: paused.id })).status.state).toBe('completed');

    // Streaming ends the same way, with input-required as the final state.
    const events = await collect(approval.sendMessageStream(userMessage('again?')));
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'input-required' } });
  });

  it('reports a failing graph as a failed task with its error', async () => {
    const failing = await client('failing');
    const task = resultOf<Task>(await failing.sendMessage(userMessage('go')));
    expect(task.status.state).toBe('failed');
    expect(textsOf(task.status.message).join()).toContain('the node broke');
    expect(task.artifacts).toBeUndefined();
    const events = await collect(failing.sendMessageStream(userMessage('go again')));
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'failed' } });
  });

  it('cancels a working task, and refuses to cancel one that ended or does not exist', async () => {
    const slow = await client('slow');
    const started = resultOf<Task>(await slow.sendMessage({ ...userMessage('take your time'), configuration: { blocking: false } }));
    expect(['submitted', 'working']).toContain(started.status.state);
    const canceled = resultOf<Task>(await slow.cancelTask({ id: started.id }));
    expect(canceled).toMatchObject({ id: started.id, status: { state: 'canceled' } });
    expect(resultOf<Task>(await slow.getTask({ id: started.id })).status.state).toBe('canceled');

    expect(await errorOf(slow.cancelTask({ id: started.id }))).toMatchObject({ code: -32002 });
    expect(await errorOf(slow.cancelTask({ id: randomUUID() }))).toMatchObject({ code: -32001 });
  });

  it('answers unknown tasks, bad params and unknown methods with their JSON-RPC errors', async () => {
    const agent = await client('agent');
    expect(await errorOf(agent.getTask({ id: randomUUID() }))).toMatchObject({ code: -32001 });
    expect(await errorOf(agent.getTask({ id: 'not-a-task' }))).toMatchObject({ code: -32001 });
    // A task of another assistant is not one of this agent's.
    const other = resultOf<Task>(await (await client('failing')).sendMessage(userMessage('x')));
    expect(await errorOf(agent.getTask({ id: other.id }))).toMatchObject({ code: -32001 });

    const noParts = await errorOf(agent.sendMessage({ message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [] } }));
    expect(noParts).toMatchObject({ code: -32602, message: expect.stringContaining('message.parts') });
    const onlyFile = userMessage('');
    onlyFile.message.parts = [{ kind: 'file', file: { uri: 'https://example.com/a.pdf' } }];
    expect(await errorOf(agent.sendMessage(onlyFile))).toMatchObject({ code: -32602, message: expect.stringContaining('no text or data') });
    expect(await errorOf(agent.sendMessage(userMessage('hi', { contextId: 'not-a-thread' })))).toMatchObject({ code: -32602, message: expect.stringContaining('contextId') });
    expect(await errorOf(agent.getTask({} as { id: string }))).toMatchObject({ code: -32602, message: expect.stringContaining('id') });
    await expect(collect(agent.sendMessageStream({ message: { kind: 'message', messageId: 'm', role: 'user', parts: [] } }))).rejects.toThrow(/-32602/);
    const nul = await errorOf(agent.sendMessage(userMessage('a\u0000b')));
    expect(nul).toMatchObject({ code: -32602, message: expect.stringMatching(/message\.parts\.0\.text: String should not contain the null character/) });

    expect(await errorOf(agent.callExtensionMethod('tasks/doSomething', {}))).toMatchObject({ code: -32601, message: expect.stringContaining('tasks/doSomething') });
    expect(await errorOf(agent.callExtensionMethod('toString', {}))).toMatchObject({ code: -32601 });
    expect(await errorOf(agent.getTaskPushNotificationConfig({ id: randomUUID() }))).toMatchObject({ code: -32003 });
  });

  it('answers a body that is not JSON with a parse error, and data parts as input', async () => {
    const card = await (await client('agent')).getAgentCard();
    const res = await fetch(card.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"jsonrpc": "2.0", "method": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });

    const withData = userMessage('Work this out:');
    withData.message.parts.push({ kind: 'data', data: { expression: '1 + 1' } });
    const task = resultOf<Task>(await (await client('agent')).sendMessage(withData));
    expect(task.status.state).toBe('completed');
    const { body: state } = await rest('GET', `/threads/${task.contextId}/state`);
    expect((state['values'] as { messages: { content: string }[] }).messages[0]?.content).toBe('Work this out:\n{"expression":"1 + 1"}');
  });

  it('answers an unknown assistant or one without messages with a JSON-RPC error', async () => {
    const card = await (await client('agent')).getAgentCard();
    const missingId = randomUUID();
    const missing = new A2AClient({ ...card, url: `${server.url}/a2a/${missingId}` }, { fetchImpl });
    expect(await errorOf(missing.sendMessage(userMessage('hi')))).toMatchObject({ code: -32602, message: expect.stringContaining(`Assistant '${missingId}' not found`) });
    await expect(collect(missing.sendMessageStream(userMessage('hi')))).rejects.toThrow(/not found/);

    const counter = await client('counter');
    expect(await errorOf(counter.sendMessage(userMessage('hi')))).toMatchObject({ code: -32004, message: expect.stringContaining("no 'messages' channel") });
  });
});
