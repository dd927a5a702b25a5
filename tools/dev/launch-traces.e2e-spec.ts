import { Client as LangGraphClient } from '@langchain/langgraph-sdk';
import { Client as LangSmithClient } from 'langsmith';
import { api, controlPlaneTestEnv, pollRevision, reactAgentRepo, waitFor, type Json } from '../../apps/control-plane/e2e/control-plane.e2e.testing';
import type { GitRepo } from '@platform/control-plane-testing';
import { startTestPlatform, type TestPlatform } from './test-platform';

// `npm start` handed the control plane every setting it knows, unset ones as undefined: PUBLIC_URL among them hid
// the gateway's URL, so deployments had no URL and their Agent Servers no tracing. A deployed agent traces into
// the platform's tracing service, in a project named after the deployment, as on LangSmith.
describe('traces of a deployed agent under the launcher', () => {
  let platform: TestPlatform;
  let repo: GitRepo;
  const testEnv = controlPlaneTestEnv();

  beforeAll(async () => {
    repo = reactAgentRepo();
    repo.commit({ 'README.md': '# traced\n' });
    platform = await startTestPlatform({ controlPlaneEnv: { ...testEnv.env, PUBLIC_URL: undefined, DEPLOYMENT_DOMAIN: undefined } });
  });
  afterAll(async () => {
    await platform?.stop();
    repo?.remove();
    await testEnv.cleanup();
  });

  it('serves the deployment at its URL and its runs read back as traces with the langsmith SDK through the gateway', async () => {
    const call = api(platform);
    const created = await call('POST', '/v2/deployments', {
      name: 'traced-agent',
      source: 'github',
      source_config: { repo_url: repo.url, deployment_type: 'dev' },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      secrets: [],
    });
    expect(created.status).toBe(201);
    const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, (s) => s === 'DEPLOYED' || s.includes('FAILED'));
    expect(revision.status).toBe('DEPLOYED');
    const deployment = (await call('GET', `/v2/deployments/${created.body.id}`)).body as Json;
    expect(deployment.source_config.custom_url).toBe(`${platform.gatewayUrl}/deployments/${deployment.id}`);

    const agent = new LangGraphClient({ apiUrl: deployment.source_config.custom_url, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
    const thread = await agent.threads.create();
    await agent.runs.wait(thread.thread_id, 'agent', { input: { messages: [{ role: 'user', content: 'What is 6 * 7?' }] } });

    const langsmith = new LangSmithClient({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: platform.adminKey, workspaceId: platform.workspaceId });
    const roots = await waitFor(
      async () => {
        const found = [];
        try {
          for await (const run of langsmith.listRuns({ projectName: 'traced-agent', isRoot: true })) found.push(run);
        } catch {
          // The project appears with the first trace.
        }
        return found;
      },
      (found) => found.length > 0,
      30_000,
      500,
    );
    expect(roots[0]).toMatchObject({ run_type: 'chain' });
    expect(JSON.stringify(roots[0].outputs)).toContain('42');
  });
});
