import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { receiveWebhooks, startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

const FIXTURES = path.resolve(__dirname, '../../../e2e/fixtures');

/**
 * A project's own HTTP app (`http.app`, e2e/fixtures/http-app.ts) in front of the core routes, and what the SDK finds
 * of the platform inside a deployment (e2e/fixtures/http-graphs.ts): getLogger(), a Client without URL.
 */
describe("the project's HTTP app (langgraph.json http.app) and the SDK inside a deployment", () => {
  let running: TestAgentServer;
  const sdk = (headers: Record<string, string> = {}) =>
    new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: { ...running.headers, ...headers }, callerOptions: { maxRetries: 0 } });
  const raw = (route: string, init: RequestInit = {}) =>
    fetch(`${running.server.url}${route}`, { ...init, headers: { 'content-type': 'application/json', ...running.headers, ...init.headers } });

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: path.join(FIXTURES, 'http-langgraph.json') });
  });
  afterAll(() => running?.stop());

  it('loads a graph that takes getLogger() at import, and its Client without a URL reaches this same server', async () => {
    const thread = await sdk().threads.create();
    expect(await sdk().runs.wait(thread.thread_id, 'self', { input: {} })).toEqual({ graphs: ['echo', 'self'], thread: thread.thread_id });
  });

  it("answers the app's routes first, its middleware stamping them", async () => {
    const hello = await raw('/custom/hello?x=1');
    expect({ status: hello.status, stamp: hello.headers.get('x-custom-middleware'), body: await hello.json() }).toEqual({
      status: 200,
      stamp: 'seen',
      body: { hello: 'world', path: '/custom/hello' },
    });
    const echo = await raw('/custom/echo', { method: 'POST', body: JSON.stringify({ ping: 1 }) });
    expect({ status: echo.status, body: await echo.json() }).toEqual({ status: 201, body: { echoed: { ping: 1 } } });
  });

  it("posts a run's relative webhook (`/custom/webhook`) to the deployment's own route, as the reference does", async () => {
    const thread = await sdk().threads.create();
    const run = await sdk().runs.create(thread.thread_id, 'echo', { input: {}, webhook: '/custom/webhook' });
    expect((run as unknown as { kwargs: object }).kwargs).toMatchObject({ webhook: '/custom/webhook' });
    await sdk().runs.join(thread.thread_id, run.run_id);
    let received: { run_id?: string; status?: string }[] = [];
    for (let i = 0; i < 300 && !received.some((hook) => hook.run_id === run.run_id); i++) {
      received = (await (await raw('/custom/webhooks')).json()) as typeof received;
      if (!received.some((hook) => hook.run_id === run.run_id)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received.find((hook) => hook.run_id === run.run_id)).toMatchObject({ run_id: run.run_id, status: 'success', thread_id: thread.thread_id });
    // A path is the only relative form: a scheme-relative URL, or anything else, is refused.
    const refused = await raw(`/threads/${thread.thread_id}/runs`, { method: 'POST', body: JSON.stringify({ assistant_id: 'echo', webhook: '//elsewhere/hook' }) });
    expect(refused.status).toBe(422);
  });

  it('wraps the core routes in its middleware, which may rewrite a request body; the rest is as without it', async () => {
    const ok = await raw('/ok');
    expect({ status: ok.status, stamp: ok.headers.get('x-custom-middleware'), body: await ok.json() }).toEqual({ status: 200, stamp: 'seen', body: { ok: true } });
    const rewritten = await sdk({ 'x-rewrite': '1' }).threads.create({ metadata: { via: 'sdk' } });
    expect(rewritten.metadata).toEqual({ via: 'sdk', rewritten: true });
    expect((await sdk().threads.get(rewritten.thread_id)).metadata).toEqual({ via: 'sdk', rewritten: true });
    // Streams come through as they are made.
    const chunks = [];
    for await (const chunk of sdk().runs.stream(rewritten.thread_id, 'echo', { input: {}, streamMode: 'values' })) chunks.push(chunk.event);
    expect(chunks).toEqual(['metadata', 'values']);
    // A DELETE's body too.
    await sdk().store.putItem(['front'], 'k', { n: 1 });
    await sdk().store.deleteItem(['front'], 'k');
    expect(await sdk().store.getItem(['front'], 'k')).toBeNull();
    // A body the middleware leaves unread streams on to the core routes, which hold it to their limit.
    const huge = await raw('/threads', { method: 'POST', body: JSON.stringify({ metadata: { blob: 'x'.repeat(11 * 1024 * 1024) } }) });
    expect(huge.status).toBe(413);
    const missing = await raw('/custom/nope');
    expect({ status: missing.status, stamp: missing.headers.get('x-custom-middleware'), body: await missing.json() }).toEqual({
      status: 404,
      stamp: 'seen',
      body: { detail: 'Not Found' },
    });
  });

  it('copies x-* headers and user-agent into the run config, but not the API key nor the gateway identity', async () => {
    const thread = await sdk().threads.create();
    const result = (await sdk({ 'x-flavour': 'spicy', 'x-api-key': 'secret', 'user-agent': 'tests/1' }).runs.wait(thread.thread_id, 'echo', { input: {} })) as {
      configurable: Record<string, unknown>;
    };
    expect(result.configurable).toMatchObject({ 'x-flavour': 'spicy', 'user-agent': 'tests/1' });
    expect(Object.keys(result.configurable).filter((name) => name.startsWith('x-') && name !== 'x-flavour' && name !== 'x-request-id')).toEqual([]);
  });

  it('bundles the graph UI (langgraph.json ui) and serves it as LoadExternalComponent loads it', async () => {
    const html = await raw('/ui/self', { method: 'POST', body: JSON.stringify({ name: 'card' }) });
    expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const host = new URL(running.server.url).host;
    expect((await html.text()).split('\n')).toEqual([
      `<link rel="stylesheet" href="http://${host}/ui/self/entrypoint.css" />`,
      `<script src="http://${host}/ui/self/entrypoint.js" onload='__LGUI_self.render("card", "{{shadowRootId}}")'></script>`,
    ]);
    const script = await raw('/ui/self/entrypoint.js');
    const code = await script.text();
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(code).toContain('var __LGUI_self');
    expect(code).toContain('fixture-card');
    // React and the shared package come from the page, not from the bundle.
    expect(code).toContain('globalThis[Symbol.for("LGUI_REQUIRE")]');
    expect(code).toContain('"@fixture/shared-widgets"');
    expect(code).toContain('"react/jsx-runtime"');
    const css = await raw('/ui/self/entrypoint.css');
    expect([css.headers.get('content-type'), await css.text()]).toEqual(['text/css; charset=utf-8', expect.stringContaining('rebeccapurple')]);
    // What is not there: a graph without UI, a file the bundle does not have, a request without a component name.
    const none = await raw('/ui/echo', { method: 'POST', body: JSON.stringify({ name: 'card' }) });
    expect([none.status, await none.json()]).toEqual([404, { detail: 'UI not found for agent "echo"' }]);
    expect((await raw('/ui/self/other.js')).status).toBe(404);
    expect((await raw('/ui/self', { method: 'POST', body: '{}' })).status).toBe(422);
  });

  it("keeps the gateway's check in front of the app's routes", async () => {
    const unsigned = await fetch(`${running.server.url}/custom/hello`);
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get('x-custom-middleware')).toBeNull();
  });
});

describe("the project's HTTP app under the deployment's own auth", () => {
  let running: TestAgentServer;
  const raw = (route: string, token?: string) =>
    fetch(`${running.server.url}${route}`, { headers: { ...running.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const calls = async () => ((await (await raw('/custom/authenticate-calls', 'token-alice')).json()) as { calls: number }).calls;

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: path.join(FIXTURES, 'http-auth-langgraph.json') });
  });
  afterAll(() => running?.stop());

  it('authenticates the custom routes as the core ones, once per request, one caller for both', async () => {
    expect((await raw('/custom/hello')).status).toBe(401);
    expect((await raw('/custom/hello', 'token-alice')).status).toBe(200);
    const alice = new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: { ...running.headers, authorization: 'Bearer token-alice' } });
    const before = await calls();
    const thread = await alice.threads.create();
    // Two requests (this one and the count): one authenticate each, though the app forwarded the first to the core.
    expect((await calls()) - before).toBe(2);
    expect(thread.metadata).toEqual({ owner: 'alice' });
    // A custom route asking the deployment (a Client without URL) as its caller sees what the caller owns.
    expect(await (await raw('/custom/my-threads', 'token-alice')).json()).toEqual({ count: 1 });
    expect(await (await raw('/custom/my-threads', 'token-bob')).json()).toEqual({ count: 0 });
  });
});

describe('langgraph.json http options: mount_prefix, disable_*, cors, configurable_headers', () => {
  let running: TestAgentServer;
  const at = (route: string, init: RequestInit = {}) =>
    fetch(`${running.server.url}${route}`, { ...init, headers: { 'content-type': 'application/json', ...running.headers, ...init.headers } });
  const sdk = (headers: Record<string, string> = {}) =>
    new Client({ apiUrl: `${running.server.url}/agent`, apiKey: null, defaultHeaders: { ...running.headers, ...headers }, callerOptions: { maxRetries: 0 } });

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: path.join(FIXTURES, 'http-options-langgraph.json') });
  });
  afterAll(() => running?.stop());

  it('serves every route under the prefix (the probes at the root too), a Client without URL included', async () => {
    expect((await at('/threads', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await at('/agent/threads', { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await at('/agent-other/threads', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await at('/ok')).status).toBe(200);
    expect((await at('/agent/ok')).status).toBe(200);
    const thread = await sdk().threads.create();
    expect(await sdk().runs.wait(thread.thread_id, 'self', { input: {} })).toEqual({ graphs: ['echo', 'self'], thread: thread.thread_id });
  });

  it('turns off the routes it disables, and webhooks', async () => {
    for (const [method, route] of [
      ['GET', '/agent/info'],
      ['POST', '/agent/store/items/search'],
      ['POST', '/agent/mcp'],
      ['GET', '/agent/.well-known/agent-card.json'],
    ]) {
      expect({ route, status: (await at(route, { method, body: method === 'POST' ? '{}' : undefined })).status }).toEqual({ route, status: 404 });
    }
    const hooks = await receiveWebhooks();
    try {
      const thread = await sdk().threads.create();
      await sdk().runs.wait(thread.thread_id, 'echo', { input: {}, webhook: hooks.url });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hooks.received).toEqual([]);
    } finally {
      hooks.close();
    }
  });

  it('answers CORS as configured: a matching origin echoed with credentials, a preflight without the gateway', async () => {
    const ok = await at('/ok', { headers: { origin: 'https://app.example' } });
    expect([ok.headers.get('access-control-allow-origin'), ok.headers.get('access-control-allow-credentials')]).toEqual(['https://app.example', 'true']);
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-trace');
    expect((await at('/ok', { headers: { origin: 'https://evil.test' } })).headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${running.server.url}/agent/threads`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
    });
    expect({
      status: preflight.status,
      origin: preflight.headers.get('access-control-allow-origin'),
      methods: preflight.headers.get('access-control-allow-methods'),
      headers: preflight.headers.get('access-control-allow-headers'),
      maxAge: preflight.headers.get('access-control-max-age'),
    }).toEqual({ status: 204, origin: 'https://app.example', methods: 'GET, HEAD, PUT, POST, DELETE, PATCH', headers: 'content-type,x-api-key', maxAge: '600' });
  });

  it('copies only the headers configurable_headers includes and does not exclude', async () => {
    const thread = await sdk().threads.create();
    const headers = { 'x-flavour': 'spicy', 'x-team-name': 'red', 'x-team-secret': 'hush', 'x-other': 'no', 'user-agent': 'tests/1' };
    const result = (await sdk(headers).runs.wait(thread.thread_id, 'echo', { input: {} })) as { configurable: Record<string, unknown> };
    const copied = Object.fromEntries(Object.entries(result.configurable).filter(([name]) => name in headers));
    expect(copied).toEqual({ 'x-flavour': 'spicy', 'x-team-name': 'red' });
  });
});
