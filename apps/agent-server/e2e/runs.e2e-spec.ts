import { randomUUID } from 'node:crypto';
import type { Client } from '@langchain/langgraph-sdk';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { fetchWithHeaders, receiveWebhooks } from '../src/http/agent-server.testing';
import {
  contents,
  deploymentFetch,
  deploymentFor,
  FAST_RUN_SETTINGS,
  slowConfig,
  TEST_LANGGRAPH_CONFIG,
  userMessage,
  waitFor,
  collect,
} from './agent-server.e2e.testing';

// The A2A SDKs (0.3, and 1.x as `a2a-js-sdk-v1`) are ES modules with CommonJS builds; their `exports` give TypeScript
// only the ESM types.
const { A2AClient } = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });
const a2aV1 = require('a2a-js-sdk-v1/client') as typeof import('a2a-js-sdk-v1/client', { with: { 'resolution-mode': 'import' } });
const a2aV1Types = require('a2a-js-sdk-v1') as typeof import('a2a-js-sdk-v1', { with: { 'resolution-mode': 'import' } });

// Deployments are routed by the control plane's table, which the tests write to: Postgres only.
describeWithService('DATABASE_URL', 'Postgres (agent server runs e2e)')('agent server runs through the gateway (SDK)', () => {
  let platform: TestPlatform;
  let client: Client;
  let call: ReturnType<typeof deploymentFetch>;
  let deploymentUrl: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: TEST_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    const deployment = await deploymentFor(platform, platform.services['agent-server'].url);
    client = deployment.client;
    call = deploymentFetch(platform, deployment.id);
    deploymentUrl = `${platform.gatewayUrl}/deployments/${deployment.id}`;
  });

  afterAll(() => platform?.stop());

  describe('thread runs', () => {
    it('creates a background run, joins it, gets, lists and deletes it', async () => {
      const thread = await client.threads.create();
      let created: { run_id: string; thread_id?: string } | undefined;
      const run = await client.runs.create(thread.thread_id, 'slow', {
        input: userMessage('hello'),
        config: slowConfig(20),
        metadata: { purpose: 'e2e' },
        onRunCreated: (meta) => {
          created = meta;
        },
      });
      expect(run).toMatchObject({ thread_id: thread.thread_id, assistant_id: expect.any(String), status: expect.stringMatching(/pending|running/) });
      expect(created).toEqual({ run_id: run.run_id, thread_id: thread.thread_id });
      const values = await client.runs.join(thread.thread_id, run.run_id);
      expect(contents(values)).toEqual(['hello', 'step 1', 'step 2', 'step 3']);
      const ended = await client.runs.get(thread.thread_id, run.run_id);
      expect(ended).toMatchObject({ status: 'success', metadata: { purpose: 'e2e' }, multitask_strategy: 'enqueue' });
      expect((await client.runs.list(thread.thread_id)).map((r) => r.run_id)).toEqual([run.run_id]);
      expect(await client.runs.list(thread.thread_id, { status: 'error' })).toEqual([]);
      const threadAfter = await client.threads.get(thread.thread_id);
      expect(threadAfter).toMatchObject({ status: 'idle', metadata: { graph_id: 'slow', assistant_id: run.assistant_id } });
      expect(contents(threadAfter.values)).toEqual(['hello', 'step 1', 'step 2', 'step 3']);
      await client.runs.delete(thread.thread_id, run.run_id);
      await expect(client.runs.get(thread.thread_id, run.run_id)).rejects.toMatchObject({ status: 404 });
    });

    it('waits for a run, on a thread and stateless, and reports failures as __error__', async () => {
      const thread = await client.threads.create();
      const values = await client.runs.wait(thread.thread_id, 'agent', { input: userMessage('What is 6*7?') });
      expect(String(contents(values).at(-1))).toContain('42');
      const stateless = await client.runs.wait(null, 'slow', { input: userMessage('solo'), config: slowConfig(1) });
      expect(contents(stateless)).toEqual(['solo', 'step 1', 'step 2', 'step 3']);
      const failed = await client.runs.wait(thread.thread_id, 'failing', { input: userMessage('x'), raiseError: false });
      expect(failed).toEqual({ __error__: { error: 'TypeError', message: 'the node broke' } });
      await expect(client.runs.wait(null, 'failing', { input: userMessage('x') })).rejects.toThrow('TypeError: the node broke');
      expect(await client.threads.get(thread.thread_id)).toMatchObject({ status: 'error' });
      expect((await client.runs.list(thread.thread_id)).map((r) => r.status)).toEqual(['error', 'success']);
    });

    it('runs stateless runs on a thread of their own, deleted unless kept', async () => {
      let deleted: string | undefined;
      await collect(
        client.runs.stream(null, 'slow', {
          input: userMessage('temp'),
          config: slowConfig(1),
          onRunCreated: (m) => {
            deleted = m.thread_id;
          },
        }),
      );
      expect(deleted).toBeUndefined(); // stateless: Content-Location names the run alone
      // The SDK types `onCompletion` as "complete" | "continue"; the wire field takes delete | keep.
      const res = await call('/runs', {
        method: 'POST',
        body: JSON.stringify({ assistant_id: 'slow', input: userMessage('kept'), config: slowConfig(1), on_completion: 'keep' }),
      });
      const kept = (await res.json()) as { run_id: string };
      const chunks = await collect(client.runs.joinStream(null, kept.run_id, { lastEventId: '-1' }));
      expect(chunks[0]).toMatchObject({ event: 'metadata', data: { run_id: kept.run_id } });
      const keptThreads = await client.threads.search({ metadata: { graph_id: 'slow' }, limit: 100 });
      const keptThread = keptThreads.find((t) => contents(t.values)[0] === 'kept');
      expect(keptThread?.status).toBe('idle');
      expect(keptThreads.some((t) => contents(t.values)[0] === 'temp')).toBe(false);

      const batch = await client.runs.createBatch([
        { assistantId: 'slow', input: userMessage('b1'), config: slowConfig(1) },
        { assistantId: 'slow', input: userMessage('b2'), config: slowConfig(1) },
      ]);
      expect(batch).toHaveLength(2);
      for (const [i, run] of batch.entries()) {
        const replay = await collect(client.runs.joinStream(null, run.run_id, { lastEventId: '-1' }));
        const last = replay.filter((c) => c.event === 'values').at(-1);
        expect(contents(last?.data)).toEqual([`b${i + 1}`, 'step 1', 'step 2', 'step 3']);
      }
    });

    it('starts a run after `after_seconds`', async () => {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('later'), config: slowConfig(1), afterSeconds: 1 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe('pending');
      await client.runs.join(thread.thread_id, run.run_id);
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe('success');
    });

    it('creates the thread with if_not_exists=create, 404 without', async () => {
      const threadId = randomUUID();
      await expect(client.runs.wait(threadId, 'slow', { input: userMessage('x') })).rejects.toMatchObject({ status: 404 });
      const values = await client.runs.wait(threadId, 'slow', { input: userMessage('x'), config: slowConfig(1), ifNotExists: 'create' });
      expect(contents(values)).toHaveLength(4);
      expect((await client.threads.get(threadId)).thread_id).toBe(threadId);
    });

    it('posts the finished run to its webhook', async () => {
      const hook = await receiveWebhooks();
      try {
        const thread = await client.threads.create();
        const run = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('hook'), config: slowConfig(1), webhook: hook.url });
        await client.runs.join(thread.thread_id, run.run_id);
        await waitFor(async () => hook.received.length, (n) => n === 1);
        expect(hook.received[0]).toMatchObject({ run_id: run.run_id, thread_id: thread.thread_id, status: 'success', webhook_sent_at: expect.any(String) });
        expect(contents(hook.received[0]?.values)).toEqual(['hook', 'step 1', 'step 2', 'step 3']);
      } finally {
        hook.close();
      }
    });
  });


  describe('human in the loop', () => {
    it('stops on interrupt() and resumes with a command', async () => {
      const thread = await client.threads.create();
      const paused = (await client.runs.wait(thread.thread_id, 'approval', { input: userMessage('deploy?') })) as Record<string, unknown>;
      expect(paused['__interrupt__']).toEqual([{ id: expect.any(String), value: { question: 'Approve?' } }]);
      const waiting = await client.threads.get(thread.thread_id);
      expect(waiting.status).toBe('interrupted');
      expect(Object.values(waiting.interrupts)).toEqual([[{ id: expect.any(String), value: { question: 'Approve?' } }]]);
      const done = await client.runs.wait(thread.thread_id, 'approval', { command: { resume: 'yes' } });
      expect(contents(done)).toEqual(['deploy?', 'answer: yes']);
      expect(await client.threads.get(thread.thread_id)).toMatchObject({ status: 'idle', interrupts: {} });
    });

    it('honours interrupt_before and continues from there', async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'slow', { input: userMessage('pause'), config: slowConfig(1), interruptBefore: ['step2'] });
      const state = await client.threads.getState(thread.thread_id);
      expect(state.next).toEqual(['step2']);
      expect((await client.threads.get(thread.thread_id)).status).toBe('interrupted');
      const done = await client.runs.wait(thread.thread_id, 'slow', { input: null, config: slowConfig(1) });
      expect(contents(done)).toEqual(['pause', 'step 1', 'step 2', 'step 3']);
    });

    it('runs from an earlier checkpoint (checkpoint_id) as a fork', async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'slow', { input: userMessage('one'), config: slowConfig(1) });
      const history = await client.threads.getHistory(thread.thread_id, { limit: 20 });
      const afterStep1 = history.find((s) => JSON.stringify(s.next) === '["step2"]')!;
      const forked = await client.runs.wait(thread.thread_id, 'slow', { input: null, checkpointId: afterStep1.checkpoint.checkpoint_id!, config: slowConfig(1) });
      expect(contents(forked)).toEqual(['one', 'step 1', 'step 2', 'step 3']);
      expect((await client.threads.getHistory(thread.thread_id, { limit: 50 })).length).toBeGreaterThan(history.length);
    });
  });

  describe('double-texting', () => {
    it('enqueue (default): three runs on one thread run in arrival order and the state holds all their messages in order', async () => {
      const thread = await client.threads.create();
      const runs = [];
      for (const text of ['first', 'second', 'third']) {
        runs.push(await client.runs.create(thread.thread_id, 'slow', { input: userMessage(text), config: slowConfig(60) }));
      }
      expect(runs.map((r) => r.multitask_strategy)).toEqual(['enqueue', 'enqueue', 'enqueue']);
      await client.runs.join(thread.thread_id, runs[2].run_id);
      const state = await client.threads.getState(thread.thread_id);
      const steps = ['step 1', 'step 2', 'step 3'];
      expect(contents(state.values)).toEqual(['first', ...steps, 'second', ...steps, 'third', ...steps]);
      expect((await client.runs.list(thread.thread_id)).map((r) => r.status)).toEqual(['success', 'success', 'success']);
    });

    it('reject: 409 with a detail while the thread is busy', async () => {
      const thread = await client.threads.create();
      const first = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('busy'), config: slowConfig(200) });
      const res = await call(`/threads/${thread.thread_id}/runs`, {
        method: 'POST',
        body: JSON.stringify({ assistant_id: 'slow', input: userMessage('no'), multitask_strategy: 'reject' }),
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ detail: expect.stringContaining('already running') });
      await client.runs.join(thread.thread_id, first.run_id);
      expect((await client.runs.list(thread.thread_id)).length).toBe(1);
    });

    it('interrupt: the running run stops, keeps its checkpoints, and the new one runs', async () => {
      const thread = await client.threads.create();
      // Steps of 2 s: the interrupt must land before step 2 even on a loaded machine (it stops the run at once).
      const first = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('first'), config: slowConfig(2_000) });
      await waitFor(() => client.threads.getState(thread.thread_id), (s) => contents(s.values).includes('step 1'));
      const second = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('second'), config: slowConfig(1), multitaskStrategy: 'interrupt' });
      await client.runs.join(thread.thread_id, second.run_id);
      expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe('interrupted');
      expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe('success');
      const state = await client.threads.getState(thread.thread_id);
      expect(contents(state.values)).toEqual(['first', 'step 1', 'second', 'step 1', 'step 2', 'step 3']);
    });

    it('rollback: the executing run is cancelled and deleted with everything it wrote', async () => {
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'slow', { input: userMessage('kept'), config: slowConfig(1) });
      const historyBefore = await client.threads.getHistory(thread.thread_id, { limit: 100 });
      // Steps of 5 s: the doomed run must still be running when the winner arrives, even on a loaded machine (the
      // rollback stops it at once, the steps' sleep ends with the cancel).
      const doomed = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('doomed'), config: slowConfig(5_000) });
      await waitFor(() => client.threads.getState(thread.thread_id), (s) => contents(s.values).includes('doomed') && contents(s.values).length > 5, 60_000);
      const winner = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('winner'), config: slowConfig(1), multitaskStrategy: 'rollback' });
      await client.runs.join(thread.thread_id, winner.run_id);
      await expect(client.runs.get(thread.thread_id, doomed.run_id)).rejects.toMatchObject({ status: 404 });
      expect((await client.runs.list(thread.thread_id)).map((r) => r.run_id)).not.toContain(doomed.run_id);
      const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
      expect(JSON.stringify(history)).not.toContain('doomed');
      // The winner added exactly what one run from the same state adds: the history before, plus its own.
      expect(history.length).toBe(historyBefore.length * 2);
      expect(contents((await client.threads.getState(thread.thread_id)).values)).toEqual([
        'kept', 'step 1', 'step 2', 'step 3', 'winner', 'step 1', 'step 2', 'step 3',
      ]);
      // Nothing of it to replay: as on the reference, joining the stream of a run the thread does not have opens the
      // stream and says so in its one event (since 01de8bc; this asserted a 404 before).
      const replay = await call(`/threads/${thread.thread_id}/runs/${doomed.run_id}/stream`, { headers: { 'Last-Event-ID': '-1' } });
      expect(replay.status).toBe(200);
      const replayed = await replay.text();
      expect(replayed).toContain('event: error');
      expect(replayed).toContain('data: "Run not found"');
      expect(replayed).not.toContain('doomed');
      expect(replayed.match(/^event:/gm)).toHaveLength(1);
    });
  });

  describe('cancel', () => {
    it('cancels one run (interrupt or rollback, wait honoured) and many at once', async () => {
      const thread = await client.threads.create();
      // Steps of 5 s: each run is still running (or queued) when its cancel arrives, even on a loaded machine; a
      // cancel ends the steps' sleep at once.
      const running = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('a'), config: slowConfig(5_000) });
      const queued = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('b'), config: slowConfig(5_000) });
      await waitFor(() => client.runs.get(thread.thread_id, running.run_id), (r) => r.status === 'running');
      await client.runs.cancel(thread.thread_id, running.run_id, true, 'interrupt');
      expect((await client.runs.get(thread.thread_id, running.run_id)).status).toBe('interrupted');
      await client.runs.cancel(thread.thread_id, queued.run_id, true, 'rollback');
      await expect(client.runs.get(thread.thread_id, queued.run_id)).rejects.toMatchObject({ status: 404 });
      expect((await client.threads.get(thread.thread_id)).status).toBe('idle');

      const other = await client.threads.create();
      const ids = [];
      for (const text of ['x', 'y', 'z']) ids.push((await client.runs.create(other.thread_id, 'slow', { input: userMessage(text), config: slowConfig(5_000) })).run_id);
      await client.runs.cancelMany({ threadId: other.thread_id, status: 'all' });
      const statuses = await waitFor(
        async () => (await client.runs.list(other.thread_id)).map((r) => r.status),
        (s) => s.every((status) => status === 'interrupted'),
      );
      expect(statuses).toHaveLength(3);
      const res = await call(`/threads/${other.thread_id}/runs/${ids[0]}/cancel`, { method: 'POST' });
      expect(res.status).toBe(202);
    });
  });


  describe('store and crons', () => {
    it('keeps items in the store and lists their namespaces', async () => {
      const namespace = ['e2e', randomUUID()];
      await client.store.putItem(namespace, 'profile', { name: 'Ada', visits: 3 });
      await client.store.putItem(namespace, 'other', { name: 'Bob', visits: 1 });
      expect(await client.store.getItem(namespace, 'profile')).toMatchObject({ namespace, key: 'profile', value: { name: 'Ada', visits: 3 } });
      const found = await client.store.searchItems(namespace, { filter: { visits: { $gt: 2 } } });
      expect(found.items.map((i) => i.key)).toEqual(['profile']);
      expect((await client.store.listNamespaces({ prefix: namespace })).namespaces).toEqual([namespace]);
      await client.store.deleteItem(namespace, 'profile');
      expect(await client.store.getItem(namespace, 'profile')).toBeNull();
    });

    it('ranks a search by meaning with the deployment’s store.index', async () => {
      const namespace = ['e2e', randomUUID()];
      await client.store.putItem(namespace, 'ada', { name: 'Ada', hobby: 'tennis' });
      await client.store.putItem(namespace, 'bob', { name: 'Bob', hobby: 'pizza pizza' });
      await client.store.putItem(namespace, 'hidden', { name: 'Ada' }, { index: false });
      const tennis = await client.store.searchItems(namespace, { query: 'who plays tennis?' });
      expect(tennis.items.map((i) => [i.key, i.score])).toEqual([
        ['ada', 1],
        ['bob', 0],
        ['hidden', null],
      ]);
      expect((await client.store.searchItems(namespace, { query: 'pizza', limit: 1 })).items.map((i) => i.key)).toEqual(['bob']);
    });

    it('creates, searches, updates and deletes a thread cron', async () => {
      const thread = await client.threads.create();
      const cron = await client.crons.createForThread(thread.thread_id, 'slow', { schedule: '*/5 * * * *', input: userMessage('tick') });
      expect(cron).toMatchObject({ cron_id: expect.any(String), thread_id: thread.thread_id, schedule: '*/5 * * * *' });
      expect((await client.crons.search({ threadId: thread.thread_id })).map((c) => c.cron_id)).toEqual([cron.cron_id]);
      expect(await client.crons.count({ threadId: thread.thread_id })).toBe(1);
      await client.crons.delete(cron.cron_id);
      expect(await client.crons.count({ threadId: thread.thread_id })).toBe(0);
      const bad = await call('/runs/crons', { method: 'POST', body: JSON.stringify({ assistant_id: 'slow', schedule: 'every day' }) });
      expect(bad.status).toBe(422);
    });
  });

  describe('A2A and MCP (their official clients, through the gateway)', () => {
    const apiHeaders = () => ({ 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId });

    it('talks A2A with the agent its card links to, through the gateway', async () => {
      const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...apiHeaders(), ...(init?.headers as Record<string, string>) } });
      const a2a = await A2AClient.fromCardUrl(`${deploymentUrl}/.well-known/agent-card.json?assistant_id=agent`, { fetchImpl });
      const card = await a2a.getAgentCard();
      expect(card.url.startsWith(`${deploymentUrl}/a2a/`)).toBe(true);
      const response = await a2a.sendMessage({
        message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'What is 2 + 3 * 4?' }] },
      });
      if ('error' in response) throw new Error(`A2A error ${response.error.code}: ${response.error.message}`);
      const task = response.result as { kind: string; contextId: string; status: { state: string }; artifacts?: { parts: { kind: string; text?: string }[] }[] };
      expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      expect(task.artifacts?.[0]?.parts[0]?.text).toBe('The calculator worked it out: 2 + 3 * 4 = 14');
      // The context is the thread: the REST API shows the same conversation.
      expect(contents((await client.threads.getState(task.contextId)).values).at(-1)).toBe('The calculator worked it out: 2 + 3 * 4 = 14');
    });

    it('talks A2A 1.0 with the 1.x client in its default mode, through the gateway', async () => {
      const fetchImpl = fetchWithHeaders(apiHeaders());
      const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } = a2aV1;
      const factory = new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory({ fetchImpl })],
          cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
        }),
      );
      const a2a = await factory.createFromUrl(`${deploymentUrl}/.well-known/agent-card.json?assistant_id=agent`, '');
      expect(a2a.protocolVersion).toBe('1.0');
      const card = await a2a.getAgentCard();
      expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '1.0', url: expect.stringMatching(new RegExp(`^${deploymentUrl}/a2a/`)) });
      const request = a2aV1Types.SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'What is 2 + 3 * 4?' }] } });
      const task = a2aV1Types.Task.toJSON((await a2a.sendMessage(request)) as ReturnType<typeof a2aV1Types.Task.fromJSON>) as {
        contextId: string;
        status: { state: string };
        artifacts?: { parts: { text?: string }[] }[];
      };
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.[0]?.parts[0]?.text).toBe('The calculator worked it out: 2 + 3 * 4 = 14');
      expect(contents((await client.threads.getState(task.contextId)).values).at(-1)).toBe('The calculator worked it out: 2 + 3 * 4 = 14');
    });

    it('lists the assistants as MCP tools and calls one, through the gateway', async () => {
      const mcp = new McpClient({ name: 'e2e', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${deploymentUrl}/mcp`), { requestInit: { headers: apiHeaders() } }));
      try {
        const { tools } = await mcp.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['agent', 'slow', 'approval']));
        const result = await mcp.callTool({ name: 'agent', arguments: { messages: [{ role: 'user', content: 'What is 6*7?' }] } });
        expect(result.isError).toBe(false);
        expect(contents(result.structuredContent).at(-1)).toEqual(expect.stringContaining('42'));
      } finally {
        await mcp.close();
      }
    });
  });

  describe('bad input', () => {
    const unknown = randomUUID();

    it('answers 404 with a detail for unknown assistants, threads and runs', async () => {
      const thread = await client.threads.create();
      const cases: [string, RequestInit][] = [
        [`/threads/${thread.thread_id}/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'no-such-graph' }) }],
        [`/runs/wait`, { method: 'POST', body: JSON.stringify({ assistant_id: unknown }) }],
        [`/threads/${unknown}/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow' }) }],
        [`/threads/${unknown}/runs`, { method: 'GET' }],
        [`/threads/${thread.thread_id}/runs/${unknown}`, { method: 'GET' }],
        [`/threads/${thread.thread_id}/runs/${unknown}/join`, { method: 'GET' }],
        [`/threads/${thread.thread_id}/runs/${unknown}/cancel`, { method: 'POST' }],
        [`/threads/${thread.thread_id}/runs/${unknown}`, { method: 'DELETE' }],
      ];
      for (const [route, init] of cases) {
        const res = await call(route, init);
        expect([route, res.status]).toEqual([route, 404]);
        expect(await res.json()).toEqual({ detail: expect.any(String) });
      }
      // Joining the stream of an unknown run opens the stream, as on the reference: one `error` event on a thread, an
      // empty stream without one (the SDK yields the event instead of throwing).
      const threadStream = await call(`/threads/${thread.thread_id}/runs/${unknown}/stream`, { method: 'GET' });
      expect({ status: threadStream.status, body: await threadStream.text() }).toEqual({ status: 200, body: 'event: error\ndata: "Run not found"\n\n' });
      const statelessStream = await call(`/runs/${unknown}/stream`, { method: 'GET' });
      expect({ status: statelessStream.status, body: await statelessStream.text() }).toEqual({ status: 200, body: '' });
    });

    it('answers 422 in the FastAPI shape for malformed requests', async () => {
      const thread = await client.threads.create();
      const cases: [string, RequestInit, (string | number)[]][] = [
        [`/threads/${thread.thread_id}/runs`, { method: 'POST', body: JSON.stringify({}) }, ['body', 'assistant_id']],
        [`/runs/wait`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow', stream_mode: 'everything' }) }, ['body', 'stream_mode']],
        [`/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow', multitask_strategy: 'ignore' }) }, ['body', 'multitask_strategy']],
        [`/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow', input: {}, command: { resume: 1 } }) }, ['body', 'command']],
        [`/runs/stream`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow', webhook: 'not a url' }) }, ['body', 'webhook']],
        [`/runs/stream`, { method: 'POST', body: '{"assistant_id": ' }, ['body', 0]],
        [`/runs/batch`, { method: 'POST', body: JSON.stringify([{ input: {} }]) }, ['body', 0, 'assistant_id']],
        [`/threads/not-a-uuid/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'slow' }) }, ['path', 'thread_id']],
        [`/threads/${thread.thread_id}/runs/nope`, { method: 'GET' }, ['path', 'run_id']],
        [`/threads/${thread.thread_id}/runs?limit=0`, { method: 'GET' }, ['query', 'limit']],
        [`/threads/${thread.thread_id}/runs/${unknown}/cancel?action=explode`, { method: 'POST' }, ['query', 'action']],
        [`/runs/cancel`, { method: 'POST', body: JSON.stringify({ run_ids: ['x'] }) }, ['body', 'run_ids', 0]],
      ];
      for (const [route, init, loc] of cases) {
        const res = await call(route, init);
        const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
        expect([route, res.status]).toEqual([route, 422]);
        expect(body.detail[0]).toEqual({ loc, msg: expect.any(String), type: expect.any(String) });
      }
    });
  });
});
