import { randomUUID } from 'node:crypto';
import type { Client } from '@langchain/langgraph-sdk';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import {
  contents,
  deploymentFetch,
  deploymentFor,
  FAST_RUN_SETTINGS,
  slowConfig,
  startReplica,
  TEST_LANGGRAPH_CONFIG,
  userMessage,
  waitFor,
  collect,
  type StreamChunk,
} from './agent-server.e2e.testing';

// Deployments are routed by the control plane's table, which the tests write to: Postgres only.
describeWithService('DATABASE_URL', 'Postgres (agent server streaming e2e)')('agent server streaming through the gateway (SDK)', () => {
  let platform: TestPlatform;
  let client: Client;
  let call: ReturnType<typeof deploymentFetch>;

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: TEST_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    const deployment = await deploymentFor(platform, platform.services['agent-server'].url);
    client = deployment.client;
    call = deploymentFetch(platform, deployment.id);
  });

  afterAll(() => platform?.stop());

  describe('streaming', () => {
    it('streams several modes at once, ids counting every event from 0, metadata first', async () => {
      const chunks = await collect(
        client.runs.stream(null, 'agent', { input: userMessage('What is 2+3?'), streamMode: ['values', 'updates', 'messages-tuple', 'debug', 'tasks', 'checkpoints'] }),
      );
      expect(chunks[0]).toMatchObject({ event: 'metadata', data: { run_id: expect.any(String), attempt: 1 }, id: '0' });
      expect(chunks.map((c) => Number(c.id))).toEqual(chunks.map((_, i) => i));
      const kinds = new Set(chunks.map((c) => c.event));
      for (const kind of ['values', 'updates', 'messages', 'debug', 'tasks', 'checkpoints']) expect(kinds).toContain(kind);
      const tuple = chunks.find((c) => c.event === 'messages')!.data as [Record<string, unknown>, Record<string, unknown>];
      expect(tuple[0]).toMatchObject({ type: expect.stringMatching(/ai|AIMessageChunk/) });
      expect(tuple[1]).toMatchObject({ langgraph_node: 'agent' });
      const checkpoint = chunks.find((c) => c.event === 'checkpoints')!.data as Record<string, unknown>;
      // As LangGraph's API server streams them: the checkpoint's values, metadata and next nodes.
      expect(checkpoint).toEqual({ values: expect.any(Object), metadata: expect.objectContaining({ step: expect.any(Number) }), next: expect.any(Array) });
      const updates = chunks.filter((c) => c.event === 'updates').map((c) => Object.keys(c.data as object)[0]);
      expect(updates).toEqual(['agent', 'tools', 'agent']);
      expect(contents(chunks.filter((c) => c.event === 'values').at(-1)?.data).at(-1)).toContain('5');
    });

    it('streams the legacy messages mode as metadata, partial and complete messages', async () => {
      const chunks = await collect(client.runs.stream(null, 'agent', { input: userMessage('Hi there'), streamMode: 'messages' }));
      const events = chunks.map((c) => c.event);
      expect(events).toContain('messages/metadata');
      expect(events).toContain('messages/partial');
      expect(events).toContain('messages/complete');
      const partials = chunks.filter((c) => c.event === 'messages/partial').map((c) => (c.data as { content: string }[])[0].content);
      expect(partials.length).toBeGreaterThan(1);
      expect(partials.at(-1)!.startsWith(partials[0])).toBe(true);
    });

    it('streams subgraph events as <mode>|<namespace>, custom events and events (streamEvents)', async () => {
      const nested = await collect(client.runs.stream(null, 'nested', { input: userMessage('in'), streamMode: ['updates'], streamSubgraphs: true }));
      const sub = nested.filter((c) => c.event.startsWith('updates|child:'));
      expect(sub.map((c) => Object.keys(c.data as object)[0])).toEqual(['inner']);
      expect(nested.filter((c) => c.event === 'updates').map((c) => Object.keys(c.data as object)[0])).toEqual(['child', 'after']);
      const flat = await collect(client.runs.stream(null, 'nested', { input: userMessage('in'), streamMode: ['updates'] }));
      expect(flat.some((c) => c.event.includes('|'))).toBe(false);

      const custom = await collect(client.runs.stream(null, 'progress', { input: userMessage('go'), streamMode: 'custom' }));
      expect(custom.filter((c) => c.event === 'custom').map((c) => c.data)).toEqual([1, 2, 3].map((progress) => ({ progress, of: 3 })));

      const events = await collect(client.runs.stream(null, 'agent', { input: userMessage('hey'), streamMode: 'events' }));
      const kinds = new Set(events.filter((c) => c.event === 'events').map((c) => (c.data as { event: string }).event));
      expect(kinds).toContain('on_chat_model_stream');
      expect(kinds).toContain('on_chain_end');
    });

    it('sends an error event when the graph fails', async () => {
      const chunks = await collect(client.runs.stream(null, 'failing', { input: userMessage('x') }));
      expect(chunks.at(-1)).toMatchObject({ event: 'error', data: { error: 'TypeError', message: 'the node broke' } });
    });

    it('sets Location and Content-Location, sends ids and heartbeats while idle', async () => {
      const thread = await client.threads.create();
      const res = await call(`/threads/${thread.thread_id}/runs/stream`, {
        method: 'POST',
        body: JSON.stringify({ assistant_id: 'slow', input: userMessage('sse'), config: slowConfig(400) }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const runPath = res.headers.get('content-location')!;
      expect(runPath).toMatch(new RegExp(`^/threads/${thread.thread_id}/runs/[0-9a-f-]{36}$`));
      expect(res.headers.get('location')).toBe(`${runPath}/stream`);
      const text = await res.text();
      expect(text).toContain(': heartbeat');
      const blocks = text.split('\n\n').filter((b) => b.startsWith('event:'));
      expect(blocks[0]).toMatch(/^event: metadata\ndata: \{.*\}\nid: 0$/);
      expect(blocks.every((b, i) => b.endsWith(`\nid: ${i}`))).toBe(true);
    });

    it('replays a run with Last-Event-ID, from the start or after any event', async () => {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('replay'), config: slowConfig(150), streamMode: ['values', 'updates'] });
      // Leave mid-run after a few events, then come back from the last one seen.
      const first: StreamChunk[] = [];
      const controller = new AbortController();
      for await (const chunk of client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1', signal: controller.signal })) {
        first.push(chunk);
        if (first.length === 3) controller.abort();
      }
      const rest = await collect(client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: first.at(-1)!.id }));
      const all = [...first, ...rest];
      expect(all.map((c) => Number(c.id))).toEqual(all.map((_, i) => i));
      expect(all.map((c) => c.event)).toEqual(['metadata', 'values', 'updates', 'values', 'updates', 'values', 'updates', 'values']);
      // After the run ended, everything is still there for the retention period.
      const again = await collect(client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '4' }));
      expect(again.map((c) => c.id)).toEqual(['5', '6', '7']);
      const onlyUpdates = await collect(client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1', streamMode: 'updates' }));
      expect(onlyUpdates.map((c) => c.event)).toEqual(['metadata', 'updates', 'updates', 'updates']);
    });

    it('streams every run of a thread, one after another, and resumes a thread stream with Last-Event-ID', async () => {
      const thread = await client.threads.create();
      const readThread = async (lastEventId: string | undefined, until: (chunks: StreamChunk[]) => boolean) => {
        const controller = new AbortController();
        const chunks: StreamChunk[] = [];
        const timer = setTimeout(() => controller.abort(), 15_000);
        try {
          for await (const chunk of client.threads.joinStream(thread.thread_id, { lastEventId, signal: controller.signal })) {
            chunks.push(chunk as StreamChunk);
            if (until(chunks)) controller.abort();
          }
        } catch (err) {
          if (!controller.signal.aborted) throw err;
        } finally {
          clearTimeout(timer);
        }
        return chunks;
      };
      const bothDone = (chunks: StreamChunk[]) => chunks.filter((c) => c.event === 'values' && contents(c.data).length === 8).length === 1;
      const reading = readThread(undefined, bothDone);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const first = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('one'), config: slowConfig(30) });
      const second = await client.runs.create(thread.thread_id, 'slow', { input: userMessage('two'), config: slowConfig(30) });
      const chunks = await reading;
      const metadata = chunks.filter((c) => c.event === 'metadata').map((c) => (c.data as { run_id: string }).run_id);
      expect(metadata).toEqual([first.run_id, second.run_id]);
      expect(chunks[0].id).toBe(`${first.run_id}:0`);
      expect(chunks.at(-1)!.id).toBe(`${second.run_id}:4`);

      const resumed = await readThread(`${first.run_id}:2`, bothDone);
      expect(resumed.map((c) => c.id)).toEqual([`${first.run_id}:3`, `${first.run_id}:4`, ...[0, 1, 2, 3, 4].map((seq) => `${second.run_id}:${seq}`)]);
      const missing = await call(`/threads/${randomUUID()}/stream`);
      expect(missing.status).toBe(404);
    });

    it('cancels a run whose stream client leaves, with on_disconnect=cancel', async () => {
      const thread = await client.threads.create();
      const controller = new AbortController();
      let runId: string | undefined;
      for await (const chunk of client.runs.stream(thread.thread_id, 'slow', {
        input: userMessage('bye'),
        config: slowConfig(500),
        onDisconnect: 'cancel',
        signal: controller.signal,
        onRunCreated: (m) => {
          runId = m.run_id;
        },
      })) {
        if (chunk.event === 'metadata') controller.abort();
      }
      const run = await waitFor(() => client.runs.get(thread.thread_id, runId!), (r) => r.status !== 'running' && r.status !== 'pending');
      expect(run.status).toBe('interrupted');
    });
  });

  describe('tracing', () => {
    it('traces every run to the tracing service when LANGSMITH_TRACING is on, with the run id as trace id', async () => {
      const project = `agent-runs-${randomUUID().slice(0, 8)}`;
      const traced = await startReplica(platform, {
        LANGSMITH_TRACING: 'true',
        LANGSMITH_ENDPOINT: `${platform.gatewayUrl}/api/v1`,
        LANGSMITH_API_KEY: platform.adminKey,
        LANGSMITH_WORKSPACE_ID: platform.workspaceId,
        LANGSMITH_PROJECT: project,
      });
      try {
        const tracedClient = (await deploymentFor(platform, traced.url)).client;
        let runId = '';
        const values = await tracedClient.runs.wait(null, 'agent', {
          input: userMessage('What is 3*3?'),
          onRunCreated: (meta) => {
            runId = meta.run_id;
          },
        });
        expect(String(contents(values).at(-1))).toContain('9');
        // Traces were flushed before the run was reported done, so the trace is there now.
        const headers = { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId };
        const res = await fetch(`${platform.gatewayUrl}/api/v1/runs/${runId}`, { headers });
        expect(res.status).toBe(200);
        const trace = (await res.json()) as { id: string; status: string; session_id: string; child_run_ids?: string[] };
        expect(trace).toMatchObject({ id: runId, status: 'success' });
        const [session] = (await (await fetch(`${platform.gatewayUrl}/api/v1/sessions?name=${project}`, { headers })).json()) as { id: string }[];
        expect(trace.session_id).toBe(session.id);
      } finally {
        await traced.stop();
      }
    });
  });
});
