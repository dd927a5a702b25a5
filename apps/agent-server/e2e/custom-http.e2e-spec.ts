import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { describeWithService } from '@platform/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { deploymentClient, deploymentFetch, deploymentFor, FAST_RUN_SETTINGS } from './agent-server.e2e.testing';

const HTTP_LANGGRAPH_CONFIG = path.join(__dirname, 'fixtures', 'http-langgraph.json');

// Deployments are routed by the control plane's table, which the tests write to: Postgres only.
describeWithService('DATABASE_URL', 'Postgres (agent server http.app and ui e2e)')("a project's HTTP app and UI (langgraph.json http.app, ui), through the gateway", () => {
  let platform: TestPlatform;
  let deploymentId: string;
  let deploymentUrl: string;
  const raw = (route: string, init: RequestInit = {}) => deploymentFetch(platform, deploymentId)(route, init);

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: HTTP_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    deploymentId = (await deploymentFor(platform, platform.services['agent-server'].url)).id;
    deploymentUrl = `${platform.gatewayUrl}/deployments/${deploymentId}`;
  });
  afterAll(() => platform?.stop());

  it("answers the app's routes, its middleware wrapping the core routes the SDK calls", async () => {
    const hello = await raw('/custom/hello');
    expect({ status: hello.status, stamp: hello.headers.get('x-custom-middleware'), body: await hello.json() }).toEqual({
      status: 200,
      stamp: 'seen',
      body: { hello: 'world', path: '/custom/hello' },
    });
    const client = deploymentClient(platform, deploymentId);
    const rewriting = new Client({
      apiUrl: deploymentUrl,
      apiKey: platform.adminKey,
      defaultHeaders: { 'X-Tenant-Id': platform.workspaceId, 'x-rewrite': '1' },
    });
    const thread = await rewriting.threads.create({ metadata: { via: 'gateway' } });
    expect(thread.metadata).toEqual({ via: 'gateway', rewritten: true });
    // A run whose graph asks the deployment through a Client without URL, streamed through the app and the gateway.
    const events = [];
    for await (const chunk of client.runs.stream(thread.thread_id, 'self', { input: {}, streamMode: 'values' })) events.push(chunk);
    expect(events.at(-1)).toMatchObject({ event: 'values', data: { graphs: ['echo', 'self'], thread: thread.thread_id } });
    expect((await raw('/custom/nope')).status).toBe(404);
    // An HTTPException the app throws answers what it says, deployed as in dev; any other error is a 500.
    const refused = await raw('/custom/refuse');
    expect({ status: refused.status, body: await refused.text() }).toEqual({ status: 400, body: 'the app refuses this' });
    const withResponse = await raw('/custom/refuse-with-response');
    expect({ status: withResponse.status, auth: withResponse.headers.get('www-authenticate'), body: await withResponse.text() }).toEqual({
      status: 401,
      auth: 'Bearer realm="app"',
      body: 'Unauthorized',
    });
    const crashed = await raw('/custom/crash');
    expect({ status: crashed.status, body: await crashed.json() }).toEqual({ status: 500, body: { detail: 'Internal Server Error' } });
    // A run's relative webhook is posted to the deployment's own route.
    const hooked = await client.runs.create(thread.thread_id, 'echo', { input: {}, webhook: '/custom/webhook' });
    await client.runs.join(thread.thread_id, hooked.run_id);
    const received = async () => ((await (await raw('/custom/webhooks')).json()) as { run_id: string; status: string }[]).find((hook) => hook.run_id === hooked.run_id);
    let hook = await received();
    for (let i = 0; i < 300 && !hook; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      hook = await received();
    }
    expect(hook).toMatchObject({ run_id: hooked.run_id, status: 'success' });
    // The gateway's key check comes before the app.
    expect((await fetch(`${deploymentUrl}/custom/hello`)).status).toBe(401);
  });

  it('serves the UI bundle at the links it hands out, through the gateway', async () => {
    const html = await (await raw('/ui/self', { method: 'POST', body: JSON.stringify({ name: 'card' }) })).text();
    const script = /<script src="([^"]+)"/.exec(html)?.[1];
    expect(script).toBe(`${deploymentUrl}/ui/self/entrypoint.js`);
    const bundle = await fetch(script as string, { headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId } });
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain('var __LGUI_self');
  });
});
