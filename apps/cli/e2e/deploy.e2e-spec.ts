import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { api, controlPlaneTestEnv, waitFor } from '../../control-plane/e2e/control-plane.e2e-helpers';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { runCli, scratchProject } from './cli.e2e-helpers';

const lastMessage = (values: unknown) => String((values as { messages: { content: unknown }[] }).messages.at(-1)?.content);

// `agent-platform deploy` of a folder (no git repository, no allowed git URL) through a running platform.
describe('agent-platform deploy', () => {
  let platform: TestPlatform;
  let project: ReturnType<typeof scratchProject>;
  const testEnv = controlPlaneTestEnv();

  beforeAll(async () => {
    // A short routing cache, as the control plane's e2e uses: the gateway notices the new revision's server at once.
    platform = await startTestPlatform({ controlPlaneEnv: { ...testEnv.env, GIT_ALLOWED_URLS: 'https://github.com/' }, gatewayEnv: { DEPLOYMENT_CACHE_TTL: '300ms' } });
    project = scratchProject();
    fs.writeFileSync(path.join(project.dir, '.env'), 'DEPLOY_E2E_SECRET=from-the-env-file\n');
  });
  afterAll(async () => {
    await platform?.stop();
    project?.remove();
    await testEnv.cleanup();
  });

  const deploy = async (name: string) => {
    const cli = runCli(['deploy', '--name', name, '--gateway', platform.gatewayUrl, '--api-key', platform.adminKey, '--workspace', platform.workspaceId], { cwd: project.dir });
    return { code: await cli.exited, output: cli.output() };
  };

  it('uploads the folder, follows the build to DEPLOYED, prints the API URL, and the SDK works there; a second deploy is a new revision', async () => {
    const first = await deploy('my-agent');
    expect(first.output).toMatch(/revision \S+: BUILDING/);
    expect(first.output).toMatch(/build +\| Build finished: commit [0-9a-f]{40}/);
    expect(first.output).toMatch(/revision \S+: DEPLOYED/);
    expect(first.code).toBe(0);
    const apiUrl = first.output.match(/API URL: (\S+)/)?.[1] as string;
    expect(apiUrl).toMatch(new RegExp(`^${platform.gatewayUrl}/deployments/[0-9a-f-]{36}$`));

    const client = new Client({ apiUrl, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
    const ask = async () => lastMessage(await client.runs.wait(null, 'agent', { input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] } }));
    expect(await ask()).toMatch(/Here is the current weather: It is \d+°C/);
    // The env file's variables are the deployment's secrets; the file itself stayed home.
    const deploymentId = apiUrl.split('/').at(-1) as string;
    const call = api(platform);
    expect((await call('GET', `/v2/deployments/${deploymentId}`)).body.secrets).toEqual([{ name: 'DEPLOY_E2E_SECRET' }]);

    const tools = path.join(project.dir, 'src', 'tools.ts');
    fs.writeFileSync(tools, fs.readFileSync(tools, 'utf8').replace('`It is ', '`Redeployed: '));
    const second = await deploy('my-agent');
    expect(second.code).toBe(0);
    expect(second.output).toContain(`Updated deployment ${deploymentId}`);
    await waitFor(ask, (answer) => /Here is the current weather: Redeployed: \d+°C/.test(answer), 10_000);
    const revisions = (await call('GET', `/v2/deployments/${deploymentId}/revisions`)).body.resources as { status: string }[];
    expect(revisions.map((r) => r.status)).toEqual(['DEPLOYED', 'REPLACED']);
  });

  it('exits non-zero with the error from the revision log when the project has a syntax error', async () => {
    fs.writeFileSync(path.join(project.dir, 'src', 'agent.ts'), 'export const graph = new StateGraph(;\n');
    const broken = await deploy('broken-agent');
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/ended (BUILD|DEPLOY)_FAILED/);
    expect(broken.output).toMatch(/deploy \| .*src\/agent\.ts:1:\d+: ERROR: Unexpected/);
  });

  it('names the bad flag', async () => {
    const cli = runCli(['deploy', '--gateway', 'not a url', '--api-key', 'k'], { cwd: project.dir });
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toContain("--gateway: 'not a url' is not an http(s) URL");
  });
});
