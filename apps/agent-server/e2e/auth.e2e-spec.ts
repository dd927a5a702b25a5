import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import pg from 'pg';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { collect, deploymentFor, FAST_RUN_SETTINGS, slowConfig, userMessage, waitFor } from './agent-server.e2e.testing';

// The A2A SDK is an ES module with a CommonJS build; its `exports` give TypeScript only the ESM types.
const { A2AClient } = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });

/** Bearer tokens `fixtures/auth.ts` knows: alice and bob may delete what they own, carol may not. */
const TOKENS = { alice: 'token-alice', bob: 'token-bob', carol: 'token-carol' } as const;
type User = keyof typeof TOKENS;

const AUTH_LANGGRAPH_CONFIG = path.join(__dirname, 'fixtures', 'auth-langgraph.json');
const ALICE = { identity: 'alice', display_name: 'alice', is_authenticated: true, permissions: ['read', 'write', 'delete'], team: 'red' };

// Deployments are routed by the control plane's table, which the tests write to: Postgres only.
describeWithService('DATABASE_URL', 'Postgres (agent server auth e2e)')("a deployment's own auth (langgraph.json auth.path), through the gateway", () => {
  let platform: TestPlatform;
  let deploymentUrl: string;
  const clients = {} as Record<User, Client>;

  /** Headers of a platform caller (the gateway's key check comes first) who is `user` to the deployment's auth. */
  const headersOf = (user?: User): Record<string, string> => ({
    'x-api-key': platform.adminKey,
    'x-tenant-id': platform.workspaceId,
    ...(user ? { authorization: `Bearer ${TOKENS[user]}` } : {}),
  });
  const raw = (route: string, init: RequestInit & { user?: User } = {}) =>
    fetch(`${deploymentUrl}${route}`, { ...init, headers: { 'content-type': 'application/json', ...headersOf(init.user), ...init.headers } });
  const notFound = { status: 404 };

  beforeAll(async () => {
    platform = await startTestPlatform({
      langgraphConfigPath: AUTH_LANGGRAPH_CONFIG,
      agentServerEnv: { ...FAST_RUN_SETTINGS, CRON_SCHEDULER_INTERVAL: '300ms' },
    });
    const deployment = await deploymentFor(platform, platform.services['agent-server'].url);
    deploymentUrl = `${platform.gatewayUrl}/deployments/${deployment.id}`;
    for (const user of Object.keys(TOKENS) as User[]) {
      clients[user] = new Client({ apiUrl: deploymentUrl, apiKey: platform.adminKey, defaultHeaders: headersOf(user), callerOptions: { maxRetries: 0 } });
    }
  });

  afterAll(() => platform?.stop());

  it('authenticates every request but the open paths, answering as its authenticate chose', async () => {
    const anonymous = new Client({ apiUrl: deploymentUrl, apiKey: platform.adminKey, defaultHeaders: headersOf(), callerOptions: { maxRetries: 0 } });
    await expect(anonymous.threads.create()).rejects.toMatchObject({ status: 401 });
    for (const authorization of [undefined, 'Bearer forged', 'Basic dG9rZW4tYWxpY2U=']) {
      const res = await raw('/threads/search', { method: 'POST', body: '{}', headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ detail: 'Invalid or missing token' });
    }
    for (const open of ['/info', '/ok', '/openapi.json']) expect((await raw(open)).status).toBe(200);
    // The gateway's own check comes first: a user token alone gets no further than the gateway.
    const keyless = await fetch(`${deploymentUrl}/threads/search`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.alice}` } });
    expect(keyless.status).toBe(401);
    expect(await keyless.json()).toEqual({ detail: expect.stringContaining('API key') });
  });

  it('keeps each user to their own threads: owner stamped, others not found, a handler refusal is 403', async () => {
    const { alice, bob, carol } = clients;
    const thread = await alice.threads.create({ metadata: { topic: 'plans', owner: 'mallory' } });
    expect(thread.metadata).toEqual({ topic: 'plans', owner: 'alice' });
    expect(await alice.threads.get(thread.thread_id)).toMatchObject({ thread_id: thread.thread_id });
    await expect(bob.threads.get(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.update(thread.thread_id, { metadata: { owner: 'bob' } })).rejects.toMatchObject(notFound);
    await expect(bob.threads.copy(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.delete(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.create({ threadId: thread.thread_id, ifExists: 'do_nothing' })).rejects.toMatchObject({ status: 409 });
    expect((await bob.threads.search({ metadata: { topic: 'plans' } })).map((t) => t.thread_id)).toEqual([]);
    expect(await bob.threads.count({ metadata: { topic: 'plans' } })).toBe(0);
    expect((await alice.threads.search({ metadata: { topic: 'plans' } })).map((t) => t.thread_id)).toEqual([thread.thread_id]);
    expect(await bob.threads.prune([thread.thread_id])).toEqual({ pruned_count: 0 });

    const copy = await alice.threads.copy(thread.thread_id);
    // The copy's metadata names the copy, as without auth (LangGraph's copy writes `thread_id`).
    expect(copy.metadata).toEqual({ topic: 'plans', owner: 'alice', thread_id: copy.thread_id });
    expect((await alice.threads.update(copy.thread_id, { metadata: { owner: 'bob', stage: 2 } })).metadata).toMatchObject({ owner: 'alice', stage: 2 });
    await alice.threads.delete(copy.thread_id);

    // carol's `*:delete` handler answers false: 403 on her own thread, which stays.
    const carols = await carol.threads.create();
    await expect(carol.threads.delete(carols.thread_id)).rejects.toMatchObject({ status: 403 });
    const refused = await raw(`/threads/${carols.thread_id}`, { method: 'DELETE', user: 'carol' });
    expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 403, body: { detail: 'Forbidden' } });
    expect(await carol.threads.get(carols.thread_id)).toMatchObject({ thread_id: carols.thread_id });
  });

  it("hands the caller to the graph, and keeps a thread's state, history and runs to its owner", async () => {
    const { alice, bob } = clients;
    const thread = await alice.threads.create();
    const values = await alice.runs.wait(thread.thread_id, 'whoami', { input: {} });
    expect(values).toEqual({ who: { user: ALICE, user_id: 'alice', permissions: ALICE.permissions } });
    const [run] = await alice.runs.list(thread.thread_id);
    expect(run.metadata).toMatchObject({ owner: 'alice' });
    // Stored with the run, so whichever replica executes it hands it to the graph.
    const { kwargs } = run as typeof run & { kwargs: { config: { configurable: Record<string, unknown> } } };
    expect(kwargs.config.configurable).toMatchObject({ langgraph_auth_user: ALICE, langgraph_auth_user_id: 'alice', user_id: 'alice' });

    await expect(bob.runs.create(thread.thread_id, 'whoami', { input: {} })).rejects.toMatchObject(notFound);
    await expect(bob.runs.create(thread.thread_id, 'whoami', { input: {}, ifNotExists: 'create' })).rejects.toMatchObject(notFound);
    await expect(bob.runs.list(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.get(thread.thread_id, run.run_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.join(thread.thread_id, run.run_id)).rejects.toMatchObject(notFound);
    await expect(bob.runs.delete(thread.thread_id, run.run_id)).rejects.toMatchObject(notFound);
    const stream = await raw(`/threads/${thread.thread_id}/runs/${run.run_id}/stream`, { user: 'bob' });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toBe('event: error\ndata: {"error":"Error","message":"404: Thread not found"}\n\n');
    await expect(bob.threads.getState(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.getHistory(thread.thread_id)).rejects.toMatchObject(notFound);
    await expect(bob.threads.updateState(thread.thread_id, { values: { who: {} }, asNode: 'whoami' })).rejects.toMatchObject(notFound);
    await expect(bob.threads.patchState(thread.thread_id, { note: 'x' })).rejects.toMatchObject(notFound);
    expect((await alice.threads.getState(thread.thread_id)).values).toEqual(values);
    expect((await alice.threads.getHistory(thread.thread_id)).length).toBeGreaterThan(0);

    // Another user's run in flight is out of reach of their cancels, one by one or in bulk.
    const slow = await alice.threads.create();
    const pending = await alice.runs.create(slow.thread_id, 'slow', { input: userMessage('hi'), config: slowConfig(300) });
    await expect(bob.runs.cancel(slow.thread_id, pending.run_id)).rejects.toMatchObject(notFound);
    expect((await raw('/runs/cancel', { method: 'POST', user: 'bob', body: JSON.stringify({ run_ids: [pending.run_id] }) })).status).toBe(204);
    await alice.runs.join(slow.thread_id, pending.run_id);
    expect((await alice.runs.get(slow.thread_id, pending.run_id)).status).toBe('success');

    // A run queued behind another is claimed from its stored row (as by any replica): the caller came with it.
    const busy = await alice.threads.create();
    const first = await alice.runs.create(busy.thread_id, 'whoami', { input: {}, config: slowConfig(300) });
    const queued = await alice.runs.create(busy.thread_id, 'whoami', { input: {} });
    expect(queued.status).toBe('pending');
    await alice.runs.join(busy.thread_id, first.run_id);
    expect(await alice.runs.join(busy.thread_id, queued.run_id)).toMatchObject({ who: { user: ALICE, user_id: 'alice' } });
  });

  it('runs a stateless run as its caller, on a thread of its own that is theirs', async () => {
    const { alice, bob } = clients;
    const chunks = await collect(alice.runs.stream(null, 'whoami', { input: {} }) as AsyncIterable<{ event: string; data: unknown }>);
    expect(chunks.at(-1)).toMatchObject({ event: 'values', data: { who: { user_id: 'alice' } } });
    // The SDK types `onCompletion` as "complete" | "continue"; the wire field takes delete | keep.
    const kept = await raw('/runs', { method: 'POST', user: 'alice', body: JSON.stringify({ assistant_id: 'whoami', input: {}, on_completion: 'keep' }) });
    const run = (await kept.json()) as { run_id: string; thread_id: string };
    expect(await alice.runs.join(run.thread_id, run.run_id)).toMatchObject({ who: { user_id: 'alice' } });
    expect((await alice.threads.get(run.thread_id)).metadata).toMatchObject({ owner: 'alice', graph_id: 'whoami' });
    await expect(bob.threads.get(run.thread_id)).rejects.toMatchObject(notFound);
    // Joining the stream of a run one may not see is, as on the reference, an open stream: a stateless join one that
    // carries nothing (the run stays hidden), a thread join one `error` event saying the thread is not found.
    const hidden = await raw(`/runs/${run.run_id}/stream`, { user: 'bob' });
    expect(hidden.status).toBe(200);
    expect(await hidden.text()).toBe('');
    expect((await raw(`/runs/${run.run_id}/stream`, { user: 'alice' })).status).toBe(200);
    const events = await collect(bob.runs.joinStream(run.thread_id, run.run_id) as AsyncIterable<{ event: string; data: unknown }>);
    expect(events).toEqual([{ event: 'error', data: { error: 'Error', message: '404: Thread not found' } }]);
  });

  it('keeps crons to their owner, and fires them as the user who made them', async () => {
    const { alice, bob, carol } = clients;
    const cron = await alice.crons.create('whoami', { schedule: '0 0 1 1 *', input: {}, metadata: { purpose: 'yearly' } });
    const mine = (await alice.crons.search({ assistantId: 'whoami' })).find((c) => c.cron_id === cron.cron_id);
    expect(mine).toMatchObject({ metadata: { purpose: 'yearly', owner: 'alice' }, user_id: 'alice' });
    expect(mine?.payload).toMatchObject({ config: { configurable: { langgraph_auth_user_id: 'alice', langgraph_auth_user: ALICE } } });
    expect((await bob.crons.search({ assistantId: 'whoami' })).map((c) => c.cron_id)).not.toContain(cron.cron_id);
    expect(await bob.crons.count({ assistantId: 'whoami' })).toBe(0);
    await expect(bob.crons.update(cron.cron_id, { schedule: '* * * * *' })).rejects.toMatchObject(notFound);
    await expect(bob.crons.delete(cron.cron_id)).rejects.toMatchObject(notFound);
    await expect(carol.crons.delete(cron.cron_id)).rejects.toMatchObject({ status: 403 });
    const thread = await alice.threads.create();
    await expect(bob.crons.createForThread(thread.thread_id, 'whoami', { schedule: '0 0 1 1 *', input: {} })).rejects.toMatchObject(notFound);
    await alice.crons.delete(cron.cron_id);

    // A firing (made due now, as time passing would) runs as alice, whoever's request the scheduler serves.
    const onThread = await alice.crons.createForThread(thread.thread_id, 'whoami', { schedule: '0 0 1 1 *', input: {} });
    const db = new pg.Client({ connectionString: platform.databases['agent-server'].url });
    await db.connect();
    try {
      await db.query(`UPDATE crons SET next_run_date = now() - interval '1 second' WHERE cron_id = $1::uuid`, [onThread.cron_id]);
    } finally {
      await db.end();
    }
    const [fired] = await waitFor(() => alice.runs.list(thread.thread_id), (runs) => runs.length === 1 && runs[0].status === 'success');
    expect(fired.metadata).toMatchObject({ owner: 'alice' });
    expect((await alice.threads.getState(thread.thread_id)).values).toEqual({ who: { user: ALICE, user_id: 'alice', permissions: ALICE.permissions } });
    await alice.crons.delete(onThread.cron_id);
  });

  it("puts each user's store items under their own namespace and shows no one else's", async () => {
    const { alice, bob } = clients;
    await alice.store.putItem(['notes'], 'todo', { text: 'buy milk' });
    await bob.store.putItem(['notes'], 'todo', { text: 'fix bike' });
    expect(await alice.store.getItem(['notes'], 'todo')).toMatchObject({ namespace: ['alice', 'notes'], value: { text: 'buy milk' } });
    expect(await bob.store.getItem(['notes'], 'todo')).toMatchObject({ namespace: ['bob', 'notes'], value: { text: 'fix bike' } });
    expect((await alice.store.searchItems([])).items.map((item) => item.namespace)).toEqual([['alice', 'notes']]);
    expect((await alice.store.listNamespaces()).namespaces).toEqual([['alice', 'notes']]);
    // Naming another user's namespace only reaches one's own below it.
    expect(await bob.store.getItem(['alice', 'notes'], 'todo')).toBeNull();
    await bob.store.deleteItem(['notes'], 'todo');
    expect(await bob.store.getItem(['notes'], 'todo')).toBeNull();
    expect(await alice.store.getItem(['notes'], 'todo')).toMatchObject({ value: { text: 'buy milk' } });
  });

  it('keeps assistants to their owner, their graph and versions included', async () => {
    const { alice, bob } = clients;
    const assistant = await alice.assistants.create({ graphId: 'whoami', name: 'mine', metadata: { kind: 'private' } });
    expect(assistant.metadata).toEqual({ kind: 'private', owner: 'alice' });
    const id = assistant.assistant_id;
    await alice.assistants.update(id, { name: 'mine, renamed' });
    for (const read of [
      () => bob.assistants.get(id),
      () => bob.assistants.getGraph(id),
      () => bob.assistants.getSchemas(id),
      () => bob.assistants.getSubgraphs(id),
      () => bob.assistants.getVersions(id),
      () => bob.assistants.setLatest(id, 1),
      () => bob.assistants.update(id, { name: 'theirs' }),
      () => bob.assistants.delete(id),
    ]) {
      await expect(read()).rejects.toMatchObject(notFound);
    }
    expect((await bob.assistants.search({ graphId: 'whoami' })).map((a) => a.assistant_id)).toEqual([]);
    expect(await bob.assistants.count({ graphId: 'whoami' })).toBe(0);
    expect((await alice.assistants.search({ graphId: 'whoami' })).map((a) => a.assistant_id)).toEqual([id]);
    expect((await alice.assistants.getVersions(id)).map((v) => v.version)).toEqual([2, 1]);
    expect(await alice.assistants.getSchemas(id)).toMatchObject({ graph_id: 'whoami' });
    // A run names any assistant (as in the reference), and runs as its caller.
    const bobs = await bob.threads.create();
    expect(await bob.runs.wait(bobs.thread_id, id, { input: {} })).toMatchObject({ who: { user_id: 'bob' } });
    // Deleting it with its threads leaves the threads of others that ran it.
    const alices = await alice.threads.create();
    await alice.runs.wait(alices.thread_id, id, { input: {} });
    await alice.assistants.delete(id, { deleteThreads: true });
    await expect(alice.assistants.get(id)).rejects.toMatchObject(notFound);
    await expect(alice.threads.get(alices.thread_id)).rejects.toMatchObject(notFound);
    expect(await bob.threads.get(bobs.thread_id)).toMatchObject({ metadata: { assistant_id: id, owner: 'bob' } });
  });

  it('applies the same auth to A2A and MCP', async () => {
    const { alice } = clients;
    const agent = await alice.assistants.create({ graphId: 'slow', name: 'steps' });
    const fetchAs = (user: User): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...headersOf(user), ...(init?.headers as Record<string, string>) } });

    const a2a = await A2AClient.fromCardUrl(`${deploymentUrl}/.well-known/agent-card.json?assistant_id=${agent.assistant_id}`, { fetchImpl: fetchAs('alice') });
    const sent = await a2a.sendMessage({
      message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'go' }] },
      configuration: { blocking: true },
    });
    if ('error' in sent) throw new Error(`A2A error ${sent.error.code}: ${sent.error.message}`);
    const task = sent.result as { id: string; contextId: string; status: { state: string } };
    expect(task.status.state).toBe('completed');
    expect((await alice.threads.get(task.contextId)).metadata).toMatchObject({ owner: 'alice' });
    const card = await raw(`/.well-known/agent-card.json?assistant_id=${agent.assistant_id}`, { user: 'bob' });
    expect(card.status).toBe(404);
    const bobsView = await (
      await raw(`/a2a/${agent.assistant_id}`, { method: 'POST', user: 'bob', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: task.id } }) })
    ).json();
    expect(bobsView).toMatchObject({ error: { message: expect.stringContaining('not found') } });

    const toolNames = async (user: User) => {
      const mcp = new McpClient({ name: 'e2e', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${deploymentUrl}/mcp`), { requestInit: { headers: headersOf(user) } }));
      try {
        const { tools } = await mcp.listTools();
        const result = await mcp.callTool({ name: 'steps', arguments: { messages: [{ role: 'user', content: 'hi' }] } }).catch((err: Error) => err);
        return { tools: tools.map((t) => t.name), called: result instanceof Error ? result.message : result.isError };
      } finally {
        await mcp.close();
      }
    };
    expect(await toolNames('alice')).toEqual({ tools: expect.arrayContaining(['steps']), called: false });
    expect(await toolNames('bob')).toEqual({ tools: [], called: expect.stringContaining('Unknown tool') });
    const anonymous = await raw('/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(anonymous.status).toBe(401);
    await waitFor(
      () => alice.runs.list(task.contextId),
      (runs) => runs.every((run) => run.status === 'success'),
    );
  });
});
