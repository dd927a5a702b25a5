import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import type { RunningService } from '@platform/http-server';
import { describeWithService, readSseData, within } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { contents, deploymentFetch, deploymentFor, FAST_RUN_SETTINGS, slowConfig, startReplica, TEST_LANGGRAPH_CONFIG, userMessage } from './agent-server.e2e.testing';

type ProtocolEvent = { type: string; seq: number; event_id: string; method: string; params: { namespace: string[]; data: Record<string, unknown> } };

// Nodes that return messages show as task namespaces too (`step1:<task id>`), as in LangGraph's own protocol.
const root = (events: ProtocolEvent[]) => events.filter((e) => e.params.namespace.length === 0);
const rootEnd = (events: ProtocolEvent[]) =>
  events.some((e) => e.method === 'lifecycle' && e.params.namespace.length === 0 && ['completed', 'failed', 'interrupted'].includes(String(e.params.data['event'])));
// What must be equal whichever replica numbered and sent the event.
const stable = (events: ProtocolEvent[]) => events.map(({ seq, event_id, method, params }) => ({ seq, event_id, method, namespace: params.namespace, data: params.data }));

/** Reads a `/stream/events` SSE body until `stop` holds (or it ends), as protocol events. */
async function readEvents(response: Response, stop: (events: ProtocolEvent[]) => boolean): Promise<ProtocolEvent[]> {
  expect(response.status).toBe(200);
  return readSseData(response, stop);
}

const CHANNELS = ['lifecycle', 'values', 'updates', 'input'];

// Deployments are routed by the control plane's table, which the tests write to: Postgres only.
describeWithService('DATABASE_URL', 'Postgres (thread streaming protocol e2e)')('SDK 1.15 thread streaming across two replicas, through the gateway', () => {
  let platform: TestPlatform;
  let replica: RunningService;
  let a: { id: string; client: Client };
  let b: { id: string; client: Client };

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: TEST_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    replica = await startReplica(platform);
    a = await deploymentFor(platform, platform.services['agent-server'].url);
    b = await deploymentFor(platform, replica.url);
  });
  afterAll(async () => {
    await replica?.stop();
    await platform?.stop();
  });

  it('follows a run started on one replica from the other with client.threads.stream()', async () => {
    const starter = a.client.threads.stream({ assistantId: 'slow' });
    const watcher = b.client.threads.stream(starter.threadId, { assistantId: 'slow' });
    try {
      // `run.start` (not `submitRun`) opens the values projection `output` resolves from before the run can end.
      await starter.run.start({ input: userMessage('across'), config: slowConfig(300) });
      const subscription = await watcher.subscribe({ channels: ['values', 'lifecycle'] });
      const seen: ProtocolEvent[] = [];
      await within(
        (async () => {
          for await (const event of subscription as AsyncIterable<ProtocolEvent>) {
            seen.push(event);
            if (rootEnd(seen)) break;
          }
        })(),
      );
      const last = seen.filter((e) => e.method === 'values').at(-1);
      expect(contents(last?.params.data)).toEqual(['across', 'step 1', 'step 2', 'step 3']);
      expect(contents(await within(starter.output))).toEqual(['across', 'step 1', 'step 2', 'step 3']);
    } finally {
      await starter.close();
      await watcher.close();
    }
  });

  it('reconnects to the other replica with the last seq and gets the rest, numbered the same', async () => {
    const viaA = deploymentFetch(platform, a.id);
    const viaB = deploymentFetch(platform, b.id);
    const threadId = randomUUID();
    const started = await (
      await viaA(`/threads/${threadId}/commands`, { method: 'POST', body: JSON.stringify({ id: 1, method: 'run.start', params: { assistant_id: 'slow', input: userMessage('resume'), config: slowConfig(400) } }) })
    ).json();
    expect(started).toMatchObject({ type: 'success', id: 1, result: { run_id: expect.any(String) } });

    // Replica B while the run executes (on either replica), cut off after three events.
    const head = await readEvents(await viaB(`/threads/${threadId}/stream/events`, { method: 'POST', body: JSON.stringify({ channels: CHANNELS }) }), (events) => events.length >= 3);
    expect(rootEnd(head)).toBe(false);
    const since = head.at(-1)!.seq;
    const tail = await readEvents(await viaA(`/threads/${threadId}/stream/events`, { method: 'POST', body: JSON.stringify({ channels: CHANNELS, since }) }), rootEnd);
    expect(tail.every((e) => e.seq > since)).toBe(true);

    const whole = await readEvents(await viaB(`/threads/${threadId}/stream/events`, { method: 'POST', body: JSON.stringify({ channels: CHANNELS }) }), rootEnd);
    expect(stable([...head, ...tail])).toEqual(stable(whole));
    expect(root(whole).map((e) => e.method)).toEqual(['lifecycle', 'values', 'updates', 'values', 'updates', 'values', 'updates', 'values', 'lifecycle']);
    expect(contents(root(whole).at(-2)!.params.data)).toEqual(['resume', 'step 1', 'step 2', 'step 3']);

    // A second run continues the thread's numbering; Last-Event-ID resumes like `since`.
    const lastOfFirst = whole.at(-1)!.seq;
    await viaB(`/threads/${threadId}/commands`, { method: 'POST', body: JSON.stringify({ id: 2, method: 'run.start', params: { assistant_id: 'slow', input: userMessage('again'), config: slowConfig(1) } }) });
    const next = await readEvents(
      await viaA(`/threads/${threadId}/stream/events`, { method: 'POST', body: JSON.stringify({ channels: ['lifecycle'] }), headers: { 'last-event-id': String(lastOfFirst) } }),
      (events) => rootEnd(events),
    );
    expect(root(next).map((e) => [e.method, e.params.data['event']])).toEqual([
      ['lifecycle', 'running'],
      ['lifecycle', 'completed'],
    ]);
    expect(next[0].seq).toBeGreaterThan(lastOfFirst);
  });
});

const AUTH_LANGGRAPH_CONFIG = path.join(__dirname, 'fixtures', 'auth-langgraph.json');
const TOKENS = { alice: 'token-alice', bob: 'token-bob' } as const;

describeWithService('DATABASE_URL', 'Postgres (thread streaming protocol auth e2e)')("thread streaming under the deployment's own auth", () => {
  let platform: TestPlatform;
  let deploymentUrl: string;
  const headersOf = (user: keyof typeof TOKENS): Record<string, string> => ({
    'x-api-key': platform.adminKey,
    'x-tenant-id': platform.workspaceId,
    authorization: `Bearer ${TOKENS[user]}`,
  });
  const clientOf = (user: keyof typeof TOKENS) => new Client({ apiUrl: deploymentUrl, apiKey: platform.adminKey, defaultHeaders: headersOf(user), callerOptions: { maxRetries: 0 } });
  const raw = (user: keyof typeof TOKENS, route: string, body: unknown) =>
    fetch(`${deploymentUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headersOf(user) }, body: JSON.stringify(body) });

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: AUTH_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    deploymentUrl = `${platform.gatewayUrl}/deployments/${(await deploymentFor(platform, platform.services['agent-server'].url)).id}`;
  });
  afterAll(() => platform?.stop());

  it("keeps each user to their own threads: another user's thread is not found on either route", async () => {
    const alice = clientOf('alice');
    const thread = alice.threads.stream({ assistantId: 'slow' });
    try {
      await thread.submitRun({ input: userMessage('mine'), config: slowConfig(1) });
      expect(contents(await within(thread.output))).toEqual(['mine', 'step 1', 'step 2', 'step 3']);
    } finally {
      await thread.close();
    }
    // The thread run.start made is stamped as alice's by her threads:create_run handler.
    expect((await alice.threads.get(thread.threadId)).metadata).toMatchObject({ owner: 'alice' });

    const bobReads = await raw('bob', `/threads/${thread.threadId}/stream/events`, { channels: ['values'] });
    expect(bobReads.status).toBe(404);
    expect(await bobReads.json()).toEqual({ detail: `Thread with ID ${thread.threadId} not found` });
    const bobRuns = await raw('bob', `/threads/${thread.threadId}/commands`, { id: 1, method: 'run.start', params: { assistant_id: 'slow', input: userMessage('not yours') } });
    expect(bobRuns.status).toBe(404);
    const bobState = await raw('bob', `/threads/${thread.threadId}/commands`, { id: 2, method: 'state.get', params: { namespace: [] } });
    expect(bobState.status).toBe(404);
    // Bob's SDK sees the same: his run on alice's thread fails, and alice's thread has one run.
    const bobThread = clientOf('bob').threads.stream(thread.threadId, { assistantId: 'slow' });
    try {
      await expect(bobThread.submitRun({ input: userMessage('still not yours') })).rejects.toThrow();
    } finally {
      await bobThread.close();
    }
    expect(await alice.runs.list(thread.threadId)).toHaveLength(1);

    // A stream bob opened before alice's run.start created the thread ends without an event once it exists.
    const future = randomUUID();
    const bobEarly = await raw('bob', `/threads/${future}/stream/events`, { channels: ['lifecycle', 'values'] });
    expect(bobEarly.status).toBe(200);
    const bobSees = readEvents(bobEarly, () => false);
    const started = await raw('alice', `/threads/${future}/commands`, { id: 1, method: 'run.start', params: { assistant_id: 'slow', input: userMessage('secret'), config: slowConfig(1) } });
    expect(await started.json()).toMatchObject({ type: 'success' });
    expect(await bobSees).toEqual([]);

    // Alice herself reads her thread's events.
    const mine = await raw('alice', `/threads/${thread.threadId}/stream/events`, { channels: ['lifecycle'] });
    const events = await readEvents(mine, rootEnd);
    expect(root(events).map((e) => e.params.data['event'])).toEqual(['running', 'completed']);
  });
});
