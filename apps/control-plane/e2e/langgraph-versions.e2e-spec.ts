import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { createGitRepo, readTree, type GitRepo } from '@platform/control-plane-testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { api, controlPlaneTestEnv, finished, pollRevision, waitFor, type Json } from './control-plane.e2e.testing';

const PROJECTS = path.resolve(__dirname, '../../../tools/conformance/projects');

// A deployment runs with its own LangGraph.js packages (one copy, shared by the Agent Server and its graphs), at
// any version in the supported ranges; outside them its build fails and says why. Real installs from npm.
describe('the deployment’s own LangGraph.js versions (local driver, real installs)', () => {
  let platform: TestPlatform;
  let call: ReturnType<typeof api>;
  const repos: GitRepo[] = [];
  const testEnv = controlPlaneTestEnv();
  const repoOf = (project: string) => {
    const repo = createGitRepo(readTree(path.join(PROJECTS, project)), `cp-${project}-`);
    repos.push(repo);
    return repo;
  };
  const create = (name: string, repo: GitRepo) =>
    call('POST', '/v2/deployments', { name, source: 'github', source_config: { repo_url: repo.url }, source_revision_config: { repo_ref: 'main' }, secrets: [] });
  const buildLog = (deploymentId: string, revisionId: string) => fs.readFileSync(path.join(testEnv.workDir, 'logs', deploymentId, `${revisionId}-build.log`), 'utf8');

  beforeAll(async () => {
    platform = await startTestPlatform({ controlPlaneEnv: { ...testEnv.env, DEPLOY_TIMEOUT: '120s' } });
    call = api(platform);
  });
  afterAll(async () => {
    await platform?.stop();
    for (const repo of repos) repo.remove();
    await testEnv.cleanup();
  });

  describe('a project pinned to the oldest supported versions', () => {
    let deployment: Json;
    let client: Client;
    const message = (content: string) => ({ messages: [{ role: 'user', content }] });

    beforeAll(async () => {
      const created = await create('langgraph-oldest', repoOf('langgraph-oldest'));
      expect(created.status).toBe(201);
      const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished, 240_000);
      expect(revision).toMatchObject({ status: 'DEPLOYED', status_message: null });
      deployment = (await call('GET', `/v2/deployments/${created.body.id}`)).body;
      client = new Client({ apiUrl: deployment.source_config.custom_url, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
    });

    it('builds with npm ci and its own packages', () => {
      const log = buildLog(deployment.id, deployment.latest_revision_id);
      expect(log).toContain('$ npm ci --no-audit --no-fund');
      expect(log).toContain('LangGraph.js packages: @langchain/langgraph 1.3.6 (project), @langchain/core 1.1.48 (project), @langchain/langgraph-checkpoint 1.1.0 (project)');
    });

    it('runs, reads state, draws the graph, and takes a Send from the API into a node only a Send reaches', async () => {
      const thread = await client.threads.create();
      const values = (await client.runs.wait(thread.thread_id, 'agent', { input: message('hi') })) as Json;
      expect(values.messages.map((m: Json) => m.content)).toEqual(['hi', 'echo: hi']);
      // The Send the server builds must be an instance of the deployment's LangGraph, not of the platform's.
      const sent = (await client.runs.wait(thread.thread_id, 'agent', { command: { goto: { node: 'visit', input: { who: 'api' } } } })) as Json;
      expect(sent.visits).toEqual(['api']);
      const state = await client.threads.getState<Json>(thread.thread_id);
      expect(state).toMatchObject({ values: { visits: ['api'] }, next: [] });
      expect((await client.threads.getHistory(thread.thread_id)).length).toBeGreaterThan(2);
      expect(await client.store.getItem(['memories'], 'last')).toMatchObject({ value: { text: 'echo: hi' } });

      const [assistant] = await client.assistants.search({ graphId: 'agent' });
      const drawing = await client.assistants.getGraph(assistant.assistant_id, { xray: true });
      expect(drawing.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['__start__', 'remember', 'visit', '__end__']));
      expect(Object.keys(await client.assistants.getSubgraphs(assistant.assistant_id))).toEqual(['reply']);
    });

    it('stops at an interrupt and resumes', async () => {
      const thread = await client.threads.create();
      const stopped = (await client.runs.wait(thread.thread_id, 'approval', { input: message('deploy?') })) as Json;
      expect(stopped.__interrupt__).toEqual([expect.objectContaining({ value: { question: 'Approve?' } })]);
      expect((await client.threads.getState(thread.thread_id)).next).toEqual(['ask']);
      const resumed = (await client.runs.wait(thread.thread_id, 'approval', { command: { resume: 'yes' } })) as Json;
      expect(resumed.messages.at(-1).content).toBe('answer: yes');
    });

    it('serves a CommonJS graph module and an ESM one (top-level await) on the same copy', async () => {
      expect(await client.runs.wait(null, 'counter', { input: {} })).toEqual({ count: 1 });
      const thread = await client.threads.create();
      expect(await client.runs.wait(thread.thread_id, 'tla', { input: {} })).toEqual({ visits: ['tla:start'] });
      const sent = await client.runs.wait(thread.thread_id, 'tla', { command: { goto: { node: 'visit', input: { who: 'api' } } } });
      expect(sent).toEqual({ visits: ['tla:start', 'tla:api'] });
    });

    it("traces its runs with the deployment's own LangChain tracer", async () => {
      const sessions = await waitFor(
        async () => (await (await fetch(`${platform.gatewayUrl}/api/v1/sessions?name=langgraph-oldest`, { headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId } })).json()) as Json[],
        (found) => found.length === 1,
        20_000,
      );
      expect(sessions[0]).toMatchObject({ name: 'langgraph-oldest' });
    });

    it('makes a new revision when install_command changes by PATCH, built with it', async () => {
      const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, { source_config: { install_command: 'echo installing; exit 7' } });
      expect(patched.status).toBe(200);
      expect(patched.body.latest_revision_id).not.toBe(deployment.latest_revision_id);
      const { revision } = await pollRevision(call, deployment.id, patched.body.latest_revision_id, finished);
      expect(revision).toMatchObject({ status: 'BUILD_FAILED', status_message: 'install_command "echo installing; exit 7" failed (exit 7):\ninstalling' });
      // The revision that serves keeps serving.
      expect((await call('GET', `/v2/deployments/${deployment.id}`)).body.active_revision_id).toBe(deployment.latest_revision_id);
      expect(await client.runs.wait(null, 'counter', { input: {} })).toEqual({ count: 1 });
    });
  });

  it('fails a LangGraph.js 0.2 project with BUILD_FAILED, naming each package, the version found and the range', async () => {
    const created = await create('langgraph-0-2', repoOf('langgraph-0.2'));
    const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished, 240_000);
    expect(revision).toMatchObject({
      status: 'BUILD_FAILED',
      status_message:
        'Unsupported LangGraph.js versions: @langchain/core 0.3.80 (supported: ^1.1.48), @langchain/langgraph 0.2.74 (supported: ^1.3.6), ' +
        '@langchain/langgraph-checkpoint 0.0.18 (supported: ^1.1.0). Install a supported version (package.json and its lockfile).',
    });
  });
});
