import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client as A2aClient } from 'a2a-js-sdk-v1/client' with { 'resolution-mode': 'import' };
import type { RunningService } from '@platform/http-server';
import { fetchWithHeaders, startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

// The SDK (1.x, installed as `a2a-js-sdk-v1` beside the 0.3 one) is an ES module with CommonJS builds; its `exports`
// give TypeScript only the ESM types.
const sdk = require('a2a-js-sdk-v1') as typeof import('a2a-js-sdk-v1', { with: { 'resolution-mode': 'import' } });
const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } = require('a2a-js-sdk-v1/client') as typeof import(
  'a2a-js-sdk-v1/client',
  { with: { 'resolution-mode': 'import' } }
);
const { SendMessageRequest, Task, TaskState, StreamResponse } = sdk;
type StreamEvent = ReturnType<typeof StreamResponse.fromJSON>;

const FIXTURES = path.resolve(__dirname, '../../../e2e/fixtures/a2a-langgraph.json');

/** A `SendMessageRequest` of a user's text, in the SDK's own (protobuf) shape. */
const userMessage = (text: string, extra: { contextId?: string; taskId?: string } = {}, configuration?: { returnImmediately: boolean }) =>
  SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra }, ...(configuration ? { configuration } : {}) });

/** What the SDK got, back in A2A 1.0's JSON shape, for readable expectations. */
const json = (task: unknown) => Task.toJSON(task as ReturnType<typeof Task.fromJSON>) as Record<string, unknown> & {
  id: string;
  contextId: string;
  status: { state: string; message?: { role: string; parts: { text?: string; data?: unknown }[] } };
  artifacts?: { name?: string; parts: { text?: string }[] }[];
  history?: { role: string; parts: { text?: string }[]; contextId?: string; taskId?: string }[];
};
const eventJson = (event: StreamEvent) => StreamResponse.toJSON(event) as Record<string, { status?: { state: string }; artifact?: unknown } & Record<string, unknown>>;
const texts = (parts: { text?: string }[] | undefined) => (parts ?? []).flatMap((p) => (p.text === undefined ? [] : [p.text]));

/**
 * A2A protocol 1.0 over the whole agent server, driven by the official A2A JS SDK 1.x in its default mode (no v0.3
 * compatibility layer), with gateway-signed headers. The 0.3 suite (a2a.sdk.spec.ts) runs against the same routes.
 */
describe('A2A 1.0 through the official A2A client (1.x, default mode)', () => {
  let running: TestAgentServer;
  let server: RunningService;
  let headers: Record<string, string>;
  let fetchImpl: typeof fetch;
  let factory: InstanceType<typeof ClientFactory>;

  const cardUrl = (assistantId: string) => `${server.url}/.well-known/agent-card.json?assistant_id=${assistantId}`;
  const client = (assistantId: string): Promise<A2aClient> => factory.createFromUrl(cardUrl(assistantId), '');
  const collect = async (stream: AsyncIterable<StreamEvent>) => {
    const events: ReturnType<typeof eventJson>[] = [];
    for await (const event of stream) events.push(eventJson(event));
    return events;
  };
  const rpc = async (url: string, method: string, params: unknown, version: string | null = '1.0') => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  };
  const endpoint = async (assistantId: string) => ((await (await fetch(cardUrl(assistantId), { headers })).json()) as { url: string }).url;

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: FIXTURES, env: { WAIT_KEEPALIVE_INTERVAL: '100ms' } });
    server = running.server;
    headers = running.headers;
    // The gateway would add the signed identity headers; the client's own headers (A2A-Version) stay as they are.
    fetchImpl = fetchWithHeaders(headers);
    factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
  });
  afterAll(() => running?.stop());

  it('serves the card in the shape of the version asked for, both interfaces listed, and the SDK picks 1.0', async () => {
    const v1 = await fetch(cardUrl('agent'), { headers: { ...headers, 'A2A-Version': '1.0' } });
    expect(v1.headers.get('vary')).toMatch(/A2A-Version/i);
    const card = (await v1.json()) as Record<string, unknown> & { supportedInterfaces: { url: string }[] };
    const url = card.supportedInterfaces[0].url;
    expect(url).toMatch(new RegExp(`^${server.url}/a2a/[0-9a-f-]{36}$`));
    expect(card).toEqual({
      name: 'agent',
      description: expect.stringContaining('agent'),
      supportedInterfaces: [
        { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      version: expect.any(String),
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [expect.objectContaining({ id: 'agent-main', tags: ['langgraph', 'agent'] })],
    });
    // No version named: 0.3's card, with the same interfaces for 1.0 clients that did not say theirs.
    const v03 = (await (await fetch(cardUrl('agent'), { headers })).json()) as Record<string, unknown>;
    expect(v03).toMatchObject({ protocolVersion: '0.3.0', url, preferredTransport: 'JSONRPC', supportedInterfaces: card.supportedInterfaces });

    const agent = await client('agent');
    expect(agent.protocolVersion).toBe('1.0');
  });

  it('answers SendMessage with the completed task, continues its context, and GetTask shows it', async () => {
    const agent = await client('agent');
    const first = json(await agent.sendMessage(userMessage('What is 2 + 3?')));
    expect(first.status.state).toBe('TASK_STATE_COMPLETED');
    expect(first.artifacts).toEqual([{ artifactId: expect.any(String), name: 'Assistant Response', parts: [{ text: expect.stringContaining('2 + 3 = 5') }] }]);
    expect(first.history?.map((m) => [m.role, texts(m.parts).join()])).toEqual([
      ['ROLE_USER', 'What is 2 + 3?'],
      ['ROLE_AGENT', expect.stringContaining('2 + 3 = 5')],
    ]);
    expect(first.history?.every((m) => m.contextId === first.contextId && m.taskId === first.id)).toBe(true);

    const second = json(await agent.sendMessage(userMessage('What is the weather in Paris?', { contextId: first.contextId })));
    expect(second).toMatchObject({ contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(texts(second.status.message?.parts)).toEqual([expect.stringContaining('Paris')]);

    const fetched = json(await agent.getTask(sdk.GetTaskRequest.fromJSON({ id: first.id, historyLength: 1 })));
    expect(fetched).toMatchObject({ id: first.id, contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' }, artifacts: first.artifacts });
    expect(fetched.history?.map((m) => m.role)).toEqual(['ROLE_AGENT']);
    const noHistory = json(await agent.getTask(sdk.GetTaskRequest.fromJSON({ id: first.id, historyLength: 0 })));
    expect(noHistory.history).toBeUndefined();
  });

  it('streams SendStreamingMessage as the task, working updates, the artifact and the final status, then closes', async () => {
    const agent = await client('agent');
    const events = await collect(agent.sendMessageStream(userMessage('What is 6 * 7?')));
    const kinds = events.map((e) => Object.keys(e)[0] + (e['statusUpdate'] ? `:${e['statusUpdate'].status?.state}` : ''));
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate:TASK_STATE_COMPLETED');
    expect(kinds.at(-2)).toBe('artifactUpdate');
    expect(new Set(kinds.slice(1, -2))).toEqual(new Set(['statusUpdate:TASK_STATE_WORKING']));
    // No `kind` and no `final` in 1.0: the members say what an event is, the end of the stream that it was the last.
    expect(JSON.stringify(events)).not.toMatch(/"kind"|"final"/);
    const progress = events.flatMap((e) => texts((e['statusUpdate']?.status as { message?: { parts: { text?: string }[] } } | undefined)?.message?.parts));
    expect(progress).toEqual(expect.arrayContaining([expect.stringContaining('calculator'), expect.stringContaining('6 * 7 = 42')]));
  });

  it('follows a working task with SubscribeToTask, and refuses one that ended', async () => {
    const slow = await client('slow');
    const started = json(await slow.sendMessage(userMessage('slowly', {}, { returnImmediately: true })));
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(started.status.state);
    const events = await collect(slow.resubscribeTask(sdk.SubscribeToTaskRequest.fromJSON({ id: started.id })));
    expect(Object.keys(events[0])).toEqual(['task']);
    expect(events.at(-1)).toMatchObject({ statusUpdate: { taskId: started.id, status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(json(await slow.getTask(sdk.GetTaskRequest.fromJSON({ id: started.id }))).artifacts?.[0]?.parts).toEqual([{ text: 'step 3' }]);

    await expect(collect(slow.resubscribeTask(sdk.SubscribeToTaskRequest.fromJSON({ id: started.id })))).rejects.toThrow(/terminal state.*Code: -32004/);
  });

  it('asks for input when the graph interrupts, and resumes the task it names', async () => {
    const approval = await client('approval');
    const paused = json(await approval.sendMessage(userMessage('ship it?')));
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(paused.status.message?.role).toBe('ROLE_AGENT');
    expect(paused.status.message?.parts).toEqual([{ text: 'Approve?' }, { data: { question: 'Approve?' }, mediaType: 'application/json' }]);
    const resumed = json(await approval.sendMessage(userMessage('yes', { taskId: paused.id, contextId: paused.contextId })));
    expect(resumed).toMatchObject({ contextId: paused.contextId, status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'answer: yes' }] }] });
    // A task that ended takes no more messages; its context does, as a new task.
    await expect(approval.sendMessage(userMessage('again', { taskId: resumed.id }))).rejects.toMatchObject({ name: 'UnsupportedOperationError', envelopeCode: -32004 });
    await expect(collect(approval.sendMessageStream(userMessage('again', { taskId: resumed.id })))).rejects.toThrow(/terminal state.*Code: -32004/);
    const next = json(await approval.sendMessage(userMessage('next?', { contextId: paused.contextId })));
    expect(next).toMatchObject({ contextId: paused.contextId, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
  });

  it('reports a failing graph as a failed task, and cancels a working one', async () => {
    const failed = json(await (await client('failing')).sendMessage(userMessage('go')));
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(texts(failed.status.message?.parts).join()).toContain('the node broke');

    const slow = await client('slow');
    const started = json(await slow.sendMessage(userMessage('take your time', {}, { returnImmediately: true })));
    const canceled = json(await slow.cancelTask(sdk.CancelTaskRequest.fromJSON({ id: started.id })));
    expect(canceled).toMatchObject({ id: started.id, status: { state: 'TASK_STATE_CANCELED' } });
    await expect(slow.cancelTask(sdk.CancelTaskRequest.fromJSON({ id: started.id }))).rejects.toMatchObject({ name: 'TaskNotCancelableError', envelopeCode: -32002 });
    await expect(slow.getTask(sdk.GetTaskRequest.fromJSON({ id: randomUUID() }))).rejects.toMatchObject({ name: 'TaskNotFoundError', envelopeCode: -32001 });
    await expect(slow.getTask(sdk.GetTaskRequest.fromJSON({ id: failed.id }))).rejects.toMatchObject({ name: 'TaskNotFoundError' });
  });

  it("lists the agent's tasks, most recently updated first, by context and state, a page at a time", async () => {
    const approval = await client('approval');
    const contextId = randomUUID();
    const first = json(await approval.sendMessage(userMessage('first?', { contextId })));
    const second = json(await approval.sendMessage(userMessage('yes', { contextId, taskId: first.id })));
    const other = json(await approval.sendMessage(userMessage('elsewhere?')));
    const list = async (params: Record<string, unknown>) => {
      const response = await approval.listTasks(sdk.ListTasksRequest.fromJSON(params));
      return sdk.ListTasksResponse.toJSON(response) as { tasks?: ReturnType<typeof json>[]; nextPageToken?: string; pageSize: number; totalSize: number };
    };

    const inContext = await list({ contextId });
    expect(inContext.tasks?.map((t) => [t.id, t.status.state])).toEqual([
      [second.id, 'TASK_STATE_COMPLETED'],
      [first.id, 'TASK_STATE_COMPLETED'],
    ]);
    expect(inContext).toMatchObject({ pageSize: 50, totalSize: 2 });
    expect(inContext.nextPageToken ?? '').toBe('');
    // Artifacts only when asked for.
    expect(inContext.tasks?.[0]?.artifacts).toBeUndefined();
    expect((await list({ contextId, includeArtifacts: true, historyLength: 0 })).tasks?.[0]).toMatchObject({ artifacts: [{ parts: [{ text: 'answer: yes' }] }] });

    const waiting = await list({ status: 'TASK_STATE_INPUT_REQUIRED' });
    expect(waiting.tasks?.map((t) => t.id)).toContain(other.id);
    expect(waiting.tasks?.map((t) => t.id)).not.toContain(first.id);
    expect((await list({ status: 'TASK_STATE_REJECTED' })).tasks).toBeUndefined();

    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await list({ pageSize: 1, pageToken });
      seen.push(...(page.tasks ?? []).map((t) => t.id));
      expect(page.totalSize).toBeGreaterThanOrEqual(3);
      pageToken = page.nextPageToken ?? '';
    } while (pageToken);
    expect(seen.slice(0, 3)).toEqual([other.id, second.id, first.id]);
    expect(new Set(seen).size).toBe(seen.length);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list({ statusTimestampAfter: future })).tasks).toBeUndefined();
    await expect(list({ pageToken: 'nope' })).rejects.toMatchObject({ envelopeCode: -32602 });
  });

  it('answers what it does not offer, bad params and other versions with their A2A 1.0 errors', async () => {
    const url = await endpoint('agent');
    expect((await rpc(url, 'GetExtendedAgentCard', {})).error).toMatchObject({ code: -32004 });
    expect((await rpc(url, 'CreateTaskPushNotificationConfig', { taskId: randomUUID(), url: 'https://example.com/hook' })).error).toMatchObject({
      code: -32003,
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED', domain: 'a2a-protocol.org' }],
    });
    expect((await rpc(url, 'message/send', {})).error).toMatchObject({ code: -32601, message: 'Method not found: message/send' });
    const noParts = await rpc(url, 'SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } });
    expect(noParts.error).toMatchObject({ code: -32602, message: expect.stringContaining('message.parts') });
    const twoContents = await rpc(url, 'SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a', url: 'https://x' }] } });
    expect(twoContents.error).toMatchObject({ code: -32602, message: expect.stringContaining('exactly one of text, data, url or raw') });
    const taskId = randomUUID();
    expect((await rpc(url, 'GetTask', { id: taskId })).error).toMatchObject({
      code: -32001,
      data: [{ reason: 'TASK_NOT_FOUND', metadata: { taskId } }],
    });
    const push = await rpc(url, 'SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { taskPushNotificationConfig: { url: 'https://x' } } });
    expect(push.error).toMatchObject({ code: -32003 });

    const future = await rpc(url, 'SendMessage', {}, '2.0');
    expect(future.error).toMatchObject({ code: -32009, message: expect.stringContaining('Supported versions: 1.0, 0.3'), data: [{ reason: 'VERSION_NOT_SUPPORTED' }] });
    // Without a version, or naming 0.3, the same endpoint speaks 0.3.
    const legacy = { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hello' }] } };
    expect((await rpc(url, 'message/send', legacy, null)).result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect((await rpc(url, 'message/send', legacy, '0.3')).result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    // Data parts may hold any JSON value; a data part that is not an object reaches the graph wrapped.
    const data = await rpc(url, 'SendMessage', { message: { messageId: 'd', role: 'ROLE_USER', parts: [{ text: 'Work this out:' }, { data: [1, 2] }] } });
    expect((data.result?.['task'] as { status: { state: string } }).status.state).toBe('TASK_STATE_COMPLETED');
    expect(TaskState.TASK_STATE_COMPLETED).toBe(3);
  });
});
