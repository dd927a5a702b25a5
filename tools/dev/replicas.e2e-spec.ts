import { Client } from '@langchain/langgraph-sdk';
import { startPlatform } from './platform';
import { registerDeployment, startTestPlatform, type TestPlatform } from './test-platform';

const onPostgres = Boolean(process.env.DATABASE_URL);

// `npm start -- --replicas agent-server=2,export-worker=2`: the services that scale out in a cluster run as several
// instances here too (agent servers on one Postgres database, export workers on one job bus).
describe('the platform with replicas', () => {
  let platform: TestPlatform;
  const agentServers = onPostgres ? 2 : 1;

  beforeAll(async () => {
    platform = await startTestPlatform({ replicas: { 'agent-server': agentServers, 'export-worker': 2 } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('runs every instance on a port of its own, each ready', async () => {
    const instances = [...platform.replicas['agent-server'], ...platform.replicas['export-worker']];
    expect(instances).toHaveLength(agentServers + 2);
    expect(new Set(instances.map((i) => i.url)).size).toBe(instances.length);
    for (const instance of instances) expect((await fetch(`${instance.url}/ready`)).status).toBe(200);
  });

  (onPostgres ? it : it.skip)('serves a deployment from both agent servers through the gateway', async () => {
    const [first, second] = platform.replicas['agent-server'];
    const id = await registerDeployment(platform, { upstreamUrl: first.url, replicaUrls: [first.url, second.url] });
    const client = new Client({ apiUrl: `${platform.gatewayUrl}/deployments/${id}`, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
    const thread = await client.threads.create();
    for (let i = 0; i < 4; i++) await client.runs.wait(thread.thread_id, 'agent', { input: { messages: [{ role: 'user', content: `What is ${i} + 1?` }] } });
    const state = await client.threads.getState<{ messages: unknown[] }>(thread.thread_id);
    expect(state.values.messages).toHaveLength(16);
  });

  it('refuses agent-server replicas on an embedded database, naming what they need', async () => {
    await expect(startPlatform({ dataDir: 'memory://', internalSecret: 'replicas-secret-0123456789', replicas: { 'agent-server': 2 } })).rejects.toThrow(
      /agent-server replicas need Postgres/,
    );
  });
});
