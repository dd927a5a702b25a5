import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createAssistantRepository, syncSystemAssistants } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, loadLangGraphProject } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import { createTestRunService } from '@platform/agent-server-runs/testing';
import { createHttpApp, startHttpServer, type RunningHttpServer, type RunningService } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { AGENT_SERVER_VERSION } from '../../service';
import { E2E_FIXTURES as FIXTURES, startTestAgentServer, type TestAgentServer } from '../agent-server.testing';
import { mountRoutes } from '@platform/openapi';
import { mcpRoutes } from './mcp.routes';

const SECRET = 'mcp-sdk-secret-0123456789abcdefghijklmnop';
const GRAPHS = ['agent', 'approval', 'failing', 'nested', 'progress', 'slow'];

const requestId = randomUUID();
const headers = { 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'mcp' }, requestId) };

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'mcp-sdk-spec', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

type Message = { type?: string; content?: unknown };
const messagesOf = (value: unknown) => ((value as { messages?: Message[] } | undefined)?.messages ?? []);
const textOf = (result: unknown) => ((result as { content: { type: string; text: string }[] }).content[0] ?? { text: '' }).text;

/**
 * The MCP endpoint of the whole agent server (database, graphs of e2e/fixtures, run workers) driven by the
 * official MCP client, plus what a client can send that the SDK never does, with plain fetch.
 */
describe('MCP through the official SDK (one server, Postgres or PGlite)', () => {
  let running: TestAgentServer;
  let server: RunningService;
  let mcp: Client;
  let transport: StreamableHTTPClientTransport;

  const post = (body: string | object, extra: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, ...extra },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const rest = async (method: string, url: string, body?: object) => {
    const res = await fetch(`${server.url}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return (await res.json()) as { assistant_id: string };
  };

  beforeAll(async () => {
    // Keep-alive newlines every 100 ms: the slow graph's calls get some, and the client must read past them.
    running = await startTestAgentServer({ secret: SECRET, env: { WAIT_KEEPALIVE_INTERVAL: '100ms' } });
    server = running.server;
    ({ client: mcp, transport } = await connect(`${server.url}/mcp/`));
  });
  afterAll(async () => {
    await mcp?.close();
    await running?.stop();
  });

  it('initializes statelessly: the client’s protocol version, tools capability, server info, no session', async () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(transport.sessionId).toBeUndefined();
    expect(mcp.getServerVersion()).toEqual({ name: 'langgraph-agent-server', version: AGENT_SERVER_VERSION });
    expect(mcp.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    await expect(mcp.ping()).resolves.toEqual({});

    // `/mcp` without the slash is the same endpoint.
    const { client } = await connect(`${server.url}/mcp`);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(GRAPHS));
    await client.close();
  });

  it('lists every assistant as a tool with its description and the graph’s input schema', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(GRAPHS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('messages');
    }
    const failing = tools.find((t) => t.name === 'failing');
    expect(failing?.description).toBe('Runs the "failing" graph (assistant "failing") and returns its final state.');
  });

  it('lists assistants created through the REST API, namesakes told apart by their id', async () => {
    const first = await rest('POST', '/assistants', { graph_id: 'slow', name: 'Quick steps!', description: 'Three quick steps', config: { configurable: { delay_ms: 1 } } });
    const second = await rest('POST', '/assistants', { graph_id: 'progress', name: 'Quick steps?' });
    const { tools } = await mcp.listTools();
    const suffix = second.assistant_id.replace(/-/g, '').slice(0, 8);
    expect(tools.find((t) => t.name === 'Quick_steps_')).toMatchObject({ description: 'Three quick steps', inputSchema: { type: 'object' } });
    expect(tools.find((t) => t.name === `Quick_steps__${suffix}`)?.description).toBe('Runs the "progress" graph (assistant "Quick steps?") and returns its final state.');

    // Each name calls its own assistant, with that assistant's config (1 ms steps).
    const steps = await mcp.callTool({ name: 'Quick_steps_', arguments: { messages: [{ role: 'user', content: 'go' }] } });
    expect(messagesOf(steps.structuredContent).map((m) => m.content)).toEqual(['go', 'step 1', 'step 2', 'step 3']);
    const progress = await mcp.callTool({ name: `Quick_steps__${suffix}`, arguments: { messages: [{ role: 'user', content: 'go' }] } });
    expect(messagesOf(progress.structuredContent).map((m) => m.content)).toEqual(['go', 'done']);

    await fetch(`${server.url}/assistants/${first.assistant_id}`, { method: 'DELETE', headers });
    await fetch(`${server.url}/assistants/${second.assistant_id}`, { method: 'DELETE', headers });
  });

  it('runs the agent with the arguments as input and answers with its final state', async () => {
    const result = await mcp.callTool({ name: 'agent', arguments: { messages: [{ role: 'user', content: 'What is 2 + 3 * 4?' }] } });
    expect(result.isError).toBe(false);
    const messages = messagesOf(result.structuredContent);
    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(messages.at(-1)?.content).toBe('The calculator worked it out: 2 + 3 * 4 = 14');
    // The text content is the same output as JSON, for clients that ignore structured content.
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('keeps a long call’s connection alive with newlines before the answer', async () => {
    const args = { messages: [{ role: 'user', content: 'take your time' }] };
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: args } });
    const text = await res.text();
    expect(text).toMatch(/^\n+\{/);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: false } });
    const result = await mcp.callTool({ name: 'slow', arguments: args });
    expect(messagesOf(result.structuredContent).map((m) => m.content)).toEqual(['take your time', 'step 1', 'step 2', 'step 3']);
  });

  it('reports a failing run as a tool error and an unknown tool as invalid params', async () => {
    const failed = await mcp.callTool({ name: 'failing', arguments: { messages: [{ role: 'user', content: 'boom' }] } });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toBeUndefined();
    expect(textOf(failed)).toBe('TypeError: the node broke');

    const unknown = mcp.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Unknown tool: no_such_tool') });
  });

  it('answers notifications and client responses with 202 and no body', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 'server-1', result: {} },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    }
  });

  it('offers no SSE stream and no session to delete: 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { ...headers, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: expect.stringContaining('POST') } });
    }
  });

  it('rejects batches, malformed JSON, unknown methods and bad params as JSON-RPC errors', async () => {
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ id: null, error: { code: -32600 } });

    const malformed = await post('{"jsonrpc": "2.0", "id": 1,');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ id: null, error: { code: -32700 } });

    const unknown = await post({ jsonrpc: '2.0', id: 7, method: 'resources/list' });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: resources/list' } });

    const noName = await (await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } })).json();
    expect(noName).toMatchObject({ id: 8, error: { code: -32602, message: expect.stringMatching(/^Invalid params for tools\/call: name: /) } });
    const badArguments = await (await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'agent', arguments: 'hi' } })).json();
    expect(badArguments).toMatchObject({ id: 9, error: { code: -32602, message: 'Invalid params for tools/call: arguments: arguments must be an object' } });
    const nulArgument = await (await post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'agent', arguments: { text: '\ud800' } } })).json();
    expect(nulArgument).toMatchObject({ id: 11, error: { code: -32602, message: expect.stringMatching(/^Invalid params for tools\/call: arguments\.text: String should not contain an unpaired surrogate/) } });
    const badCursor = await (await post({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { cursor: 'nope' } })).json();
    expect(badCursor).toMatchObject({ id: 10, error: { code: -32602, message: 'Invalid cursor: "nope"' } });
  });

  it('checks MCP-Protocol-Version and answers an unknown client version with its own latest', async () => {
    const unsupported = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining('unsupported MCP-Protocol-Version "1999-01-01"') } });

    const older = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': '2025-03-26' });
    expect(await older.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });

    const init = (protocolVersion: string) =>
      post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl', version: '1' } } });
    const res = await init('2024-11-05');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toMatchObject({ id: 3, result: { protocolVersion: '2024-11-05' } });
    expect(await (await init('2099-01-01')).json()).toMatchObject({ result: { protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { version: AGENT_SERVER_VERSION } } });
  });
});

/**
 * What the whole server cannot show: `tools/list` pages (page size 2 here) and a run cancelled when its caller
 * goes away — an app of its own, on the fixtures' graphs, with the database at hand.
 */
describe('MCP on an app of its own: pages and cancelling', () => {
  let database: TestDatabase;
  let db: AgentServerDatabase;
  let runs: RunService;
  let http: RunningHttpServer;

  // Steps of a minute: a run that would go on for three minutes unless cancelled, so that "ended at once" is told
  // from "ran its course" by a wide margin however loaded the machine is.
  const STEP_MS = 60_000;

  // Conditions polled with a bound for a loaded machine (a condition met returns at once).
  const waitFor = async <T>(probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await openAgentServerDatabase({ url: database.url, dataDir: database.dataDir });
    await db.migrate();
    const project = await loadLangGraphProject(FIXTURES);
    const checkpointer = new PrismaCheckpointSaver(db.prisma);
    const registry = createGraphRegistry({ graphs: project.graphs, checkpointer });
    const assistants = createAssistantRepository(db.prisma);
    await syncSystemAssistants(assistants, registry, project.defaults);
    await assistants.insert({ assistant_id: randomUUID(), graph_id: 'slow', name: 'sleepy', config: { configurable: { delay_ms: STEP_MS } } });
    runs = createTestRunService(db, { registry, checkpointer, assistants });
    await runs.start();
    const { app } = createHttpApp({
      service: 'agent-server',
      logger: silentLogger,
      identity: { secret: SECRET },
      routes: (routes) => mountRoutes(routes, mcpRoutes({ assistants, registry, runs, version: 'test', pageSize: 2 })),
    });
    http = await startHttpServer(app, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await runs?.stop();
    await http?.close();
    await db?.close();
    await database?.drop();
  });

  it('pages oldest first with an opaque cursor until every tool was listed once', async () => {
    const { client } = await connect(`${http.url}/mcp`);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      pages.push(page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await client.close();
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    // The system assistants came first; the one added after them is on the last page.
    expect(pages.at(-1)).toEqual(['sleepy']);
    expect(pages.flat().sort()).toEqual([...GRAPHS, 'sleepy'].sort());
  });

  it('cancels the run when the client goes away before it ended', async () => {
    const controller = new AbortController();
    const call = fetch(`${http.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleepy', arguments: { messages: [{ role: 'user', content: 'zzz' }] } } }),
      signal: controller.signal,
    }).catch((err: Error) => err.name);
    const running = await waitFor(async () => (await db.sql.query<{ run_id: string }>(`SELECT run_id::text AS run_id FROM runs WHERE status = 'running'`))[0]);
    controller.abort();
    expect(await call).toBe('AbortError');
    // Cancelled, the stateless run ends at once (and its temporary thread goes, the run row with it): well within
    // the step it was sleeping in, let alone the two after it. The margin is relative to the step, not a fixed time.
    const stopped = Date.now();
    await waitFor(async () => {
      const rows = await db.sql.query(`SELECT 1 FROM runs WHERE run_id = $1::uuid AND status IN ('pending', 'running')`, [running.run_id]);
      return rows.length === 0 ? true : undefined;
    }, STEP_MS);
    expect(Date.now() - stopped).toBeLessThan(STEP_MS / 2);
  });
});
