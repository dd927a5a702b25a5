import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { api, controlPlaneTestEnv, waitFor } from '../../control-plane/e2e/control-plane.e2e.testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { runCli, scratchProject } from './cli.e2e.testing';

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
  }, 360_000);

  it('exits non-zero with the error from the revision log when the project has a syntax error', async () => {
    fs.writeFileSync(path.join(project.dir, 'src', 'agent.ts'), 'export const graph = new StateGraph(;\n');
    const broken = await deploy('broken-agent');
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/ended (BUILD|DEPLOY)_FAILED/);
    // The user's file as the project names it, not the build copy's path; the error printed once (the log), the
    // closing line its summary.
    expect(broken.output).toMatch(/deploy \| (.*[ "'])?src\/agent\.ts:1:\d+: ERROR: Unexpected/);
    expect(broken.output).not.toContain(testEnv.workDir);
    const closing = broken.output.slice(broken.output.indexOf('ended DEPLOY_FAILED'));
    expect(closing).toMatch(/^ended DEPLOY_FAILED: Agent Server exited with code 1 before it became healthy \(the log above has the error\)\n$/);
  });

  it('takes only a size-limited project archive, and only from the workspace it was uploaded to', async () => {
    const post = (body: Buffer | string, type: string, headers: Record<string, string> = {}) =>
      fetch(`${platform.gatewayUrl}/v2/sources/checks`, {
        method: 'POST',
        headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': type, ...headers },
        body,
      });
    expect((await post('{}', 'application/json')).status).toBe(400);
    const notGzip = await post(Buffer.from('not an archive'), 'application/gzip');
    expect(notGzip.status).toBeGreaterThanOrEqual(400);
    expect(notGzip.status).toBeLessThan(500);
    expect((await fetch(`${platform.gatewayUrl}/v2/sources/..%2Fescape`, { method: 'POST', headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': 'application/gzip' }, body: Buffer.alloc(0) })).status).toBeLessThan(500);
    // A small archive of a file larger than the limit once unpacked (100 MiB): refused while it streams in.
    const bombDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bomb-'));
    execFileSync('truncate', ['-s', '101M', path.join(bombDir, 'big.bin')]);
    const bombArchive = execFileSync('tar', ['-czf', '-', '-C', bombDir, 'big.bin'], { maxBuffer: 64 * 1024 * 1024 });
    fs.rmSync(bombDir, { recursive: true, force: true });
    expect(bombArchive.length).toBeLessThan(1024 * 1024);
    const bomb = await post(bombArchive, 'application/gzip');
    expect(bomb.status).toBe(413);

    // Another workspace cannot deploy from this one's upload.
    const uploaded = await api(platform)('GET', '/v2/deployments?name_contains=my-agent');
    const repoUrl = uploaded.body.resources[0].source_config.repo_url as string;
    const other = await fetch(`${platform.gatewayUrl}/api/v1/workspaces`, { method: 'POST', headers: { 'x-api-key': platform.adminKey, 'content-type': 'application/json' }, body: JSON.stringify({ display_name: 'other' }) });
    const otherId = ((await other.json()) as { id: string }).id;
    const stolen = await api(platform, otherId)('POST', '/v2/deployments', {
      name: 'stolen',
      source: 'github',
      source_config: { repo_url: repoUrl, deployment_type: 'dev' },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      secrets: [],
    });
    expect(stolen.status).toBe(422);
    expect(stolen.body.detail[0]).toMatchObject({ loc: ['body', 'source_config', 'repo_url'] });

    // Nor by a path through its own uploads folder, however it is spelled, nor the platform's own checkout.
    const own = repoUrl.replace(`/${platform.workspaceId}/my-agent`, `/${otherId}`);
    expect(own).not.toBe(repoUrl);
    const A = platform.workspaceId;
    for (const traversal of [
      `${own}/..%2f${A}%2fmy-agent`,
      `${own}/%2e%2e/${A}/my-agent`,
      `${own}/.%2e/${A}/my-agent`,
      `${own}/%252e%252e/${A}/my-agent`,
      `${own}/..%5c${A}%5cmy-agent`,
      `${own}/../${A}/my-agent`,
      `${own}/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2f${encodeURIComponent(process.cwd().slice(1))}`,
      `file://${process.cwd()}`,
    ]) {
      const attempt = await api(platform, otherId)('POST', '/v2/deployments', {
        name: 'stolen-by-traversal',
        source: 'github',
        source_config: { repo_url: traversal, deployment_type: 'dev' },
        source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
        secrets: [],
      });
      expect({ traversal, status: attempt.status }).toEqual({ traversal, status: 422 });
    }
  });

  it('names the bad flag', async () => {
    const cli = runCli(['deploy', '--gateway', 'not a url', '--api-key', 'k'], { cwd: project.dir });
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toContain("--gateway: 'not a url' is not an http(s) URL");
  });
});

