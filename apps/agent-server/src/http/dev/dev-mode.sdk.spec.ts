import { startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

const KEY = 'dev-remote-key-0123456789';

describe('dev mode (agent-platform dev)', () => {
  let deployed: TestAgentServer;
  let dev: TestAgentServer;

  beforeAll(async () => {
    deployed = await startTestAgentServer();
    dev = await startTestAgentServer({ env: { LANGGRAPH_DEV: 'true', LANGGRAPH_DEV_RELOAD: 'false', LANGGRAPH_DEV_API_KEY: KEY } });
  });
  afterAll(async () => {
    await deployed?.stop();
    await dev?.stop();
  });

  const truncate = (server: TestAgentServer, headers: Record<string, string>) =>
    fetch(`${server.server.url}/internal/truncate`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"threads":true}' });

  it('a deployment has no POST /internal/truncate', async () => {
    expect((await truncate(deployed, deployed.headers)).status).toBe(404);
  });

  it('a dev server needs no gateway signature, only its API key when it has one', async () => {
    const anonymous = await truncate(dev, {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: 'Missing or invalid X-Api-Key' });
    expect((await truncate(dev, { 'x-api-key': `${KEY}x` })).status).toBe(401);
    expect((await truncate(dev, { 'x-api-key': KEY })).status).toBe(200);
    expect((await fetch(`${dev.server.url}/ok`)).status).toBe(200);
    const search = await fetch(`${dev.server.url}/threads/search`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body: '{}' });
    expect(search.status).toBe(200);
  });

  it("takes the reference test helper's body: keys it does not know are ignored, what it names is emptied", async () => {
    const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
    const created = await fetch(`${dev.server.url}/threads`, { method: 'POST', headers, body: '{}' });
    const { thread_id } = (await created.json()) as { thread_id: string };
    const res = await fetch(`${dev.server.url}/internal/truncate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ runs: true, threads: true, assistants: true, checkpoint: true, store: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect((await fetch(`${dev.server.url}/threads/${thread_id}`, { headers })).status).toBe(404);
  });
});
