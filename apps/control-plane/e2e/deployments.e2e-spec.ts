import fs from 'node:fs';
import { Client } from '@langchain/langgraph-sdk';
import pg from 'pg';
import type { GitRepo } from '@platform/control-plane-testing';
import { createGitRepo } from '@platform/control-plane-testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import {
  agentProcessesOf,
  api,
  controlPlaneTestEnv,
  environOf,
  finished,
  getWithHost,
  inHappyPathOrder,
  isRunning,
  pollRevision,
  reactAgentRepo,
  REACT_AGENT_DIR,
  waitFor,
  type Json,
} from './control-plane.e2e.testing';

const DOMAIN = 'deployments.localtest';

// The issue's flow, through the gateway: create from a git repository holding examples/react-agent, poll the
// revision to DEPLOYED, run on it with the SDK at custom_url, PATCH to a new ref, DELETE; plus the failures.
describe('deployments through the gateway (local driver, real Agent Servers)', () => {
  let platform: TestPlatform;
  let call: ReturnType<typeof api>;
  let repo: GitRepo;
  let v2Sha: string;
  let mainSha: string;
  const testEnv = controlPlaneTestEnv();

  beforeAll(async () => {
    repo = reactAgentRepo();
    mainSha = repo.commit({ 'README.md': '# react agent (main)\n' });
    repo.branch('v2');
    repo.checkout('v2');
    v2Sha = repo.commit({ 'src/version.ts': "export const VERSION = 'v2';\n" }, 'v2');
    repo.checkout('main');
    platform = await startTestPlatform({ controlPlaneEnv: testEnv.env, gatewayEnv: { DEPLOYMENT_CACHE_TTL: '300ms', DEPLOYMENT_DOMAIN: DOMAIN } });
    call = api(platform);
  });

  afterAll(async () => {
    await platform?.stop();
    repo?.remove();
    await testEnv.cleanup();
  });

  describe('the deployment flow', () => {
    let deployment: Json;
    let firstRevisionId: string;
    let firstPids: number[];
    let threadId: string;
    let client: Client;

    it('creates a deployment (201) whose first revision is listed at once and reaches DEPLOYED in order', async () => {
      const started = Date.now();
      const created = await call('POST', '/v2/deployments', {
        name: 'react-agent-e2e',
        source: 'github',
        source_config: { repo_url: repo.url, deployment_type: 'dev' },
        source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
        secrets: [{ name: 'MY_SECRET', value: 's3cret-value' }],
      });
      expect(created.status).toBe(201);
      deployment = created.body;
      expect(deployment).toMatchObject({
        id: expect.any(String),
        latest_revision_id: expect.any(String),
        name: 'react-agent-e2e',
        source: 'github',
        status: 'AWAITING_DATABASE',
        secrets: [{ name: 'MY_SECRET' }],
        source_config: { repo_url: repo.url, deployment_type: 'dev', custom_url: `${platform.gatewayUrl}/deployments/${deployment.id}` },
      });
      expect(JSON.stringify(deployment)).not.toContain('s3cret-value');
      firstRevisionId = deployment.latest_revision_id;

      const got = await call('GET', `/v2/deployments/${deployment.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: deployment.id, latest_revision_id: firstRevisionId });
      const revisions = await call('GET', `/v2/deployments/${deployment.id}/revisions`);
      expect(revisions.body.resources.map((r: Json) => r.id)).toEqual([firstRevisionId]);

      const { revision, seen } = await pollRevision(call, deployment.id, firstRevisionId, finished);
      process.stderr.write(`deploy time POST → DEPLOYED: ${Date.now() - started} ms (statuses seen: ${seen.join(' → ')})\n`);
      expect(revision).toMatchObject({ status: 'DEPLOYED', status_message: null, source_revision_config: { repo_ref: 'main', repo_commit_sha: mainSha } });
      expect(inHappyPathOrder(seen)).toBe(true);

      const ready = (await call('GET', `/v2/deployments/${deployment.id}`)).body;
      expect(ready).toMatchObject({ status: 'READY', active_revision_id: firstRevisionId, source_revision_config: { repo_commit_sha: mainSha } });
      deployment = ready;
      firstPids = agentProcessesOf(deployment.id);
      expect(firstPids.length).toBeGreaterThan(0);
    });

    it('serves the Agent Server at custom_url: a thread, three enqueued runs, state with every message in order', async () => {
      client = new Client({ apiUrl: deployment.source_config.custom_url, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
      const thread = await client.threads.create();
      threadId = thread.thread_id;
      const questions = ['What is 6 * 7?', 'What is the weather in Paris?', 'What is 12 + 30?'];
      const runs = [];
      for (const content of questions) {
        runs.push(await client.runs.create(threadId, 'agent', { input: { messages: [{ role: 'user', content }] }, multitaskStrategy: 'enqueue' }));
      }
      for (const run of runs) await client.runs.join(threadId, run.run_id);
      const state = await client.threads.getState<{ messages: { type: string; content: unknown }[] }>(threadId);
      const messages = state.values.messages;
      expect(messages.filter((m) => m.type === 'human').map((m) => m.content)).toEqual(questions);
      // Each question is followed by the agent's work on it (tool calls and answers) before the next one.
      const humanAt = messages.map((m, i) => (m.type === 'human' ? i : -1)).filter((i) => i >= 0);
      expect(humanAt[0]).toBe(0);
      for (let i = 0; i < humanAt.length; i++) {
        const end = humanAt[i + 1] ?? messages.length;
        const turn = messages.slice(humanAt[i] + 1, end);
        expect(turn.some((m) => m.type === 'tool')).toBe(true);
        expect(turn.at(-1)?.type).toBe('ai');
      }
      for (const run of runs) expect((await client.runs.get(threadId, run.run_id)).status).toBe('success');
    });

    it('reaches the deployment by host name under the wildcard domain', async () => {
      // fetch() may not set Host; a plain request can, as a browser resolving <id>.<domain> to the gateway would.
      const res = await getWithHost(`${platform.gatewayUrl}/info`, `${deployment.id}.${DOMAIN}`, {
        'x-api-key': platform.adminKey,
        'x-tenant-id': platform.workspaceId,
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ deployment_id: deployment.id });
    });

    it('runs the server with its secrets, its own database and tracing into a project named after the deployment', async () => {
      const env = environOf(firstPids[0]);
      expect(env).toMatchObject({
        MY_SECRET: 's3cret-value',
        DEPLOYMENT_ID: deployment.id,
        MIGRATE_ON_START: 'true',
        LANGSMITH_TRACING: 'true',
        LANGSMITH_ENDPOINT: `${platform.gatewayUrl}/api/v1`,
        LANGSMITH_PROJECT: 'react-agent-e2e',
        LANGSMITH_API_KEY: expect.stringMatching(/^lsv2_sk_/),
      });
      if (process.env.DATABASE_URL) {
        // Its own database, as a role of its own (the one that owns that database), never the operator's admin.
        const own = `${testEnv.prefix}${deployment.id.replaceAll('-', '')}`;
        const url = new URL(env.DATABASE_URL);
        expect([url.username, url.pathname]).toEqual([own, `/${own}`]);
      }
      else expect(env.DATA_DIR).toContain(deployment.id);
      // Encrypted at rest, never returned.
      const stored = await platform.controlPlane.prisma.deploymentSecret.findMany({ where: { deploymentId: deployment.id } });
      expect(stored.map((s) => s.name)).toEqual(['MY_SECRET']);
      expect(stored[0].value).not.toContain('s3cret-value');
      // The minted tracing key is accepted by the tracing service (behind the gateway's API-key check), and the
      // runs above were traced into the deployment's project.
      const sessions = await waitFor(
        async () => {
          const res = await fetch(`${platform.gatewayUrl}/api/v1/sessions?name=react-agent-e2e`, { headers: { 'x-api-key': env.LANGSMITH_API_KEY } });
          expect(res.status).toBe(200);
          return (await res.json()) as Json[];
        },
        (found) => found.length === 1,
        20_000,
      );
      expect(sessions[0]).toMatchObject({ name: 'react-agent-e2e', tenant_id: platform.workspaceId });
    });

    it('PATCH to a new repo_ref deploys a new revision without downtime and retires the old instance', async () => {
      const patched = await call('PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { repo_ref: 'v2' } });
      expect(patched.status).toBe(200);
      const secondRevisionId = patched.body.latest_revision_id;
      expect(secondRevisionId).not.toBe(firstRevisionId);
      expect(patched.body.active_revision_id).toBe(firstRevisionId);

      // The deployment keeps answering while the new revision is built and deployed.
      let failures = 0;
      let probing = true;
      const probe = (async () => {
        while (probing) {
          const res = await fetch(`${deployment.source_config.custom_url}/ok`, { headers: { 'x-api-key': platform.adminKey } });
          if (res.status !== 200) failures++;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const { revision } = await pollRevision(call, deployment.id, secondRevisionId, finished);
      await waitFor(async () => firstPids.filter(isRunning), (alive) => alive.length === 0, 20_000);
      probing = false;
      await probe;
      expect(revision).toMatchObject({ status: 'DEPLOYED', source_revision_config: { repo_ref: 'v2', repo_commit_sha: v2Sha } });
      // On Postgres old and new overlap (no downtime); an embedded PGlite database admits one process at a time,
      // so there the old server stops before the new one starts (a short gap, documented).
      if (process.env.DATABASE_URL) expect(failures).toBe(0);

      const after = (await call('GET', `/v2/deployments/${deployment.id}`)).body;
      expect(after).toMatchObject({ active_revision_id: secondRevisionId, latest_revision_id: secondRevisionId, source_revision_config: { repo_ref: 'v2', repo_commit_sha: v2Sha } });
      const listed = await call('GET', `/v2/deployments/${deployment.id}/revisions`);
      expect(listed.body.resources.map((r: Json) => [r.id, r.status])).toEqual([
        [secondRevisionId, 'DEPLOYED'],
        [firstRevisionId, 'REPLACED'],
      ]);
      // The deployment's database outlives its revisions: the thread is still there.
      const state = await client.threads.getState<{ messages: unknown[] }>(threadId);
      expect(state.values.messages.length).toBeGreaterThan(6);
      deployment = after;
    });

    it('redeploys an earlier revision at its recorded commit', async () => {
      const redeployed = await call('POST', `/v2/deployments/${deployment.id}/revisions/${firstRevisionId}/redeploy`);
      expect(redeployed.status).toBe(200);
      const thirdRevisionId = redeployed.body.latest_revision_id;
      const { revision } = await pollRevision(call, deployment.id, thirdRevisionId, finished);
      expect(revision).toMatchObject({ status: 'DEPLOYED', source_revision_config: { repo_ref: 'main', repo_commit_sha: mainSha } });
      expect((await call('GET', `/v2/deployments/${deployment.id}`)).body.active_revision_id).toBe(thirdRevisionId);
    });

    it('keeps deployments to their workspace', async () => {
      const other = await fetch(`${platform.gatewayUrl}/api/v1/workspaces`, {
        method: 'POST',
        headers: { 'x-api-key': platform.adminKey, 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: 'elsewhere' }),
      });
      const otherCall = api(platform, ((await other.json()) as Json).id);
      expect((await otherCall('GET', `/v2/deployments/${deployment.id}`)).status).toBe(404);
      expect((await otherCall('PATCH', `/v2/deployments/${deployment.id}`, { source_revision_config: { repo_ref: 'main' } })).status).toBe(404);
      expect((await otherCall('DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(404);
      expect((await otherCall('GET', `/v2/deployments/${deployment.id}/revisions`)).status).toBe(404);
      expect((await otherCall('GET', `/deployments/${deployment.id}/info`)).status).toBe(404);
      expect((await otherCall('GET', '/v2/deployments')).body.resources).toEqual([]);
    });

    it('DELETE answers 204, then the deployment goes away with its process and database', async () => {
      const pids = agentProcessesOf(deployment.id);
      expect(pids.length).toBeGreaterThan(0);
      expect((await call('DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
      const during = await call('GET', `/v2/deployments/${deployment.id}`);
      expect([200, 404]).toContain(during.status);
      if (during.status === 200) expect(during.body.status).toBe('AWAITING_DELETE');
      await waitFor(() => call('GET', `/v2/deployments/${deployment.id}`), (r) => r.status === 404, 30_000);
      await waitFor(async () => pids.filter(isRunning), (alive) => alive.length === 0, 5_000);
      expect((await call('GET', `/deployments/${deployment.id}/info`)).status).toBe(404);
      expect(fs.existsSync(`${testEnv.workDir}/builds/${deployment.id}`)).toBe(false);
      expect(await platform.controlPlane.prisma.revision.count({ where: { deploymentId: deployment.id } })).toBe(0);
      if (process.env.DATABASE_URL) {
        // Its database, then its role.
        const own = `${testEnv.prefix}${deployment.id.replaceAll('-', '')}`;
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        const left = await admin.query('SELECT datname FROM pg_database WHERE datname = $1 UNION ALL SELECT rolname FROM pg_roles WHERE rolname = $1', [own]);
        await admin.end();
        expect(left.rows).toEqual([]);
      }
    });
  });

  describe('dependencies', () => {
    it('installs what the platform does not provide (npm install) and serves a graph that uses it', async () => {
      const withDependency = reactAgentRepo();
      withDependency.commit({
        'package.json': JSON.stringify({ name: 'greeter', private: true, dependencies: { 'greeting-lib': 'file:./vendor/greeting-lib' } }),
        'vendor/greeting-lib/package.json': JSON.stringify({ name: 'greeting-lib', version: '1.0.0', main: 'index.js' }),
        'vendor/greeting-lib/index.js': "exports.greet = (name) => `Hello, ${name}, from greeting-lib`;\n",
        'src/greeter.ts': [
          "import { AIMessage } from '@langchain/core/messages';",
          "import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';",
          "import { greet } from 'greeting-lib';",
          "export const graph = new StateGraph(MessagesAnnotation).addNode('greet', () => ({ messages: [new AIMessage(greet('e2e'))] })).addEdge('__start__', 'greet').compile();",
          '',
        ].join('\n'),
        'langgraph.json': JSON.stringify({ graphs: { greeter: './src/greeter.ts:graph' }, dependencies: ['.'] }),
      });
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'greeter',
          source: 'github',
          source_config: { repo_url: withDependency.url },
          source_revision_config: { repo_ref: 'main' },
          secrets: [],
        });
        const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
        expect(revision.status).toBe('DEPLOYED');
        const buildLog = fs.readFileSync(`${testEnv.workDir}/logs/${created.body.id}/${created.body.latest_revision_id}-build.log`, 'utf8');
        expect(buildLog).toContain('$ npm install');
        const client = new Client({ apiUrl: created.body.source_config.custom_url, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } });
        const values = (await client.runs.wait(null, 'greeter', { input: { messages: [{ role: 'user', content: 'hi' }] } })) as { messages: { content: string }[] };
        expect(values.messages.at(-1)?.content).toBe('Hello, e2e, from greeting-lib');
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
        await waitFor(() => call('GET', `/v2/deployments/${created.body.id}`), (r) => r.status === 404, 30_000);
      } finally {
        withDependency.remove();
      }
    });
  });

  describe('failures', () => {
    it('fails a broken repository with BUILD_FAILED and the reason', async () => {
      const broken = createGitRepo({ 'langgraph.json': JSON.stringify({ graphs: { agent: './src/missing.ts:graph' } }), 'package.json': '{"name":"broken"}' });
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'broken',
          source: 'github',
          source_config: { repo_url: broken.url },
          source_revision_config: { repo_ref: 'main' },
          secrets: [],
        });
        expect(created.status).toBe(201);
        const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
        expect(revision).toMatchObject({ status: 'BUILD_FAILED', status_message: 'langgraph.json: graph "agent" file ./src/missing.ts not found' });
        expect((await call('GET', `/v2/deployments/${created.body.id}`)).body.active_revision_id).toBeNull();
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
      } finally {
        broken.remove();
      }
    });

    it('fails an Agent Server that exits at start with DEPLOY_FAILED and its log', async () => {
      const repo2 = reactAgentRepo();
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'exits-at-start',
          source: 'github',
          source_config: { repo_url: repo2.url },
          source_revision_config: { repo_ref: 'main' },
          secrets: [{ name: 'LANGSMITH_ENDPOINT', value: 'not a url' }],
        });
        const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
        expect(revision.status).toBe('DEPLOY_FAILED');
        expect(revision.status_message).toMatch(/^Agent Server exited with code \d+ before it became healthy/);
        expect(revision.status_message).toContain('LANGSMITH_ENDPOINT');
        expect(agentProcessesOf(created.body.id)).toEqual([]);
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
      } finally {
        repo2.remove();
      }
    });

    it('fails a deployment whose auth module (langgraph.json auth.path) throws on import with DEPLOY_FAILED and the error', async () => {
      const repo2 = reactAgentRepo();
      const config = JSON.parse(fs.readFileSync(`${REACT_AGENT_DIR}/langgraph.json`, 'utf8')) as Json;
      repo2.commit({
        'langgraph.json': JSON.stringify({ ...config, auth: { path: './src/auth.ts:auth' } }),
        'src/auth.ts': [
          "import { Auth } from '@langchain/langgraph-sdk/auth';",
          "if (!process.env.AUTH_JWKS_URL) throw new Error('AUTH_JWKS_URL is not set');",
          'export const auth = new Auth();',
        ].join('\n'),
      });
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'auth-fails-import',
          source: 'github',
          source_config: { repo_url: repo2.url },
          source_revision_config: { repo_ref: 'main' },
          secrets: [],
        });
        const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
        // Never a server that serves without the auth it asked for: the revision fails with the module's error.
        expect(revision.status).toBe('DEPLOY_FAILED');
        expect(revision.status_message).toMatch(/^Agent Server exited with code \d+ before it became healthy/);
        expect(revision.status_message).toContain('auth.path: cannot load ./src/auth.ts: AUTH_JWKS_URL is not set');
        expect(agentProcessesOf(created.body.id)).toEqual([]);
        expect((await call('GET', `/v2/deployments/${created.body.id}`)).body.active_revision_id).toBeNull();
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
      } finally {
        repo2.remove();
      }
    });

    it('fails an Agent Server that never becomes healthy with DEPLOY_FAILED once the deploy timeout passes', async () => {
      const hanging = reactAgentRepo();
      // The graph module blocks its thread for good (no CPU), so the server never listens.
      hanging.commit({ 'src/agent.ts': 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\nexport const graph = {};\n' });
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'never-healthy',
          source: 'github',
          source_config: { repo_url: hanging.url },
          source_revision_config: { repo_ref: 'main' },
          secrets: [],
        });
        const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, finished);
        expect(revision.status).toBe('DEPLOY_FAILED');
        expect(revision.status_message).toMatch(/^Agent Server did not answer GET \/ok within 60 s/);
        await waitFor(async () => agentProcessesOf(created.body.id), (pids) => pids.length === 0, 20_000);
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
      } finally {
        hanging.remove();
      }
    });

    it('skips a revision a newer one supersedes, and interrupts a build on request', async () => {
      const slow = reactAgentRepo();
      try {
        const created = await call('POST', '/v2/deployments', {
          name: 'slow-build',
          source: 'github',
          source_config: { repo_url: slow.url, install_command: 'sleep 60' },
          source_revision_config: { repo_ref: 'main' },
          secrets: [],
        });
        const first = created.body.latest_revision_id;
        await pollRevision(call, created.body.id, first, (s) => s === 'BUILDING', 30_000);
        const patched = await call('PATCH', `/v2/deployments/${created.body.id}`, { source_revision_config: { repo_ref: 'main' } });
        const second = patched.body.latest_revision_id;
        const skipped = await pollRevision(call, created.body.id, first, finished, 30_000);
        expect(skipped.revision).toMatchObject({ status: 'SKIPPED', status_message: `Superseded by revision ${second}` });
        await pollRevision(call, created.body.id, second, (s) => s === 'BUILDING', 30_000);

        const interrupted = await call('POST', `/v2/deployments/${created.body.id}/revisions/${second}/interrupt`);
        expect(interrupted.status).toBe(200);
        expect(interrupted.body).toMatchObject({ id: second, status: 'INTERRUPTED', status_message: 'Interrupted by request' });
        const again = await call('POST', `/v2/deployments/${created.body.id}/revisions/${second}/interrupt`);
        expect(again.status).toBe(409);
        // The build's processes are gone (no `sleep 60` left for this checkout), and nothing was deployed.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect((await call('GET', `/v2/deployments/${created.body.id}/revisions/${second}`)).body.status).toBe('INTERRUPTED');
        expect((await call('GET', `/v2/deployments/${created.body.id}`)).body.active_revision_id).toBeNull();
        const statuses = await call('GET', `/v2/deployments/${created.body.id}/revisions?status=SKIPPED,INTERRUPTED`);
        expect(statuses.body.resources.map((r: Json) => r.status)).toEqual(['INTERRUPTED', 'SKIPPED']);
        expect((await call('DELETE', `/v2/deployments/${created.body.id}`)).status).toBe(204);
        await waitFor(() => call('GET', `/v2/deployments/${created.body.id}`), (r) => r.status === 404, 30_000);
      } finally {
        slow.remove();
      }
    });
  });

  describe('validation', () => {
    const valid = () => ({
      name: 'valid-name',
      source: 'github',
      source_config: { repo_url: repo.url },
      source_revision_config: { repo_ref: 'main' },
      secrets: [],
    });

    it('answers 422 HTTPValidationError for bad bodies', async () => {
      const missing = await call('POST', '/v2/deployments', { name: 'x' });
      expect(missing.status).toBe(422);
      expect(missing.body.detail).toEqual(
        expect.arrayContaining([
          { loc: ['body', 'source'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'source_config'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'secrets'], msg: 'Field required', type: 'missing' },
        ]),
      );
      const cases: [unknown, (string | number)[]][] = [
        [{ ...valid(), source: 'gitlab' }, ['body', 'source']],
        [{ ...valid(), name: '-bad name' }, ['body', 'name']],
        [{ ...valid(), source_config: { repo_url: 'https://example.com/not-allowed.git' } }, ['body', 'source_config', 'repo_url']],
        [{ ...valid(), source_revision_config: {} }, ['body', 'source_revision_config', 'repo_ref']],
        [{ ...valid(), source: 'external_docker', source_revision_config: {} }, ['body', 'source_revision_config', 'image_uri']],
        [{ ...valid(), secrets: [{ name: 'DATABASE_URL', value: 'x' }] }, ['body', 'secrets', 0, 'name']],
        [{ ...valid(), secrets: [{ name: 'not valid', value: 'x' }] }, ['body', 'secrets', 0, 'name']],
        [{ ...valid(), source_config: { repo_url: repo.url, resource_spec: { min_scale: 3, max_scale: 2 } } }, ['body', 'source_config', 'resource_spec', 'max_scale']],
        [
          { ...valid(), source_config: { repo_url: repo.url, resource_spec: { volumes: [{ name: 'v', emptyDirr: {} }] } } },
          ['body', 'source_config', 'resource_spec', 'volumes', 0, 'emptyDirr'],
        ],
        [{ ...valid(), source_revision_config: { repo_ref: 'main', langgraph_config_path: '../x.json' } }, ['body', 'source_revision_config', 'langgraph_config_path']],
      ];
      for (const [body, loc] of cases) {
        const res = await call('POST', '/v2/deployments', body);
        expect({ status: res.status, locs: res.body.detail?.map((d: Json) => d.loc) }).toEqual({ status: 422, locs: expect.arrayContaining([loc]) });
        for (const issue of res.body.detail) expect(issue).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
      }
      const bad = await call('GET', '/v2/deployments?limit=0');
      expect(bad.status).toBe(422);
    });

    it('refuses changes to immutable fields with a 400 naming them, and a duplicate name with 409', async () => {
      const created = await call('POST', '/v2/deployments', { ...valid(), source_config: { repo_url: repo.url, install_command: 'sleep 120' } });
      expect(created.status).toBe(201);
      const id = created.body.id;
      try {
        expect((await call('POST', '/v2/deployments', valid())).status).toBe(409);
        const renamed = await call('PATCH', `/v2/deployments/${id}`, { name: 'other-name', source_config: { repo_url: `${repo.url}/x`, deployment_type: 'dev' } });
        expect(renamed.status).toBe(400);
        expect(renamed.body.detail).toBe('Immutable field(s) cannot be changed after creation: name, source_config.repo_url, source_config.deployment_type');
        expect((await call('PATCH', `/v2/deployments/${id}`, { source: 'external_docker' })).status).toBe(400);
        // Repeating an immutable value or a build setting unchanged makes no revision.
        const same = await call('PATCH', `/v2/deployments/${id}`, { name: 'valid-name', source_config: { repo_url: repo.url, install_command: 'sleep 120' } });
        expect(same.status).toBe(200);
        expect(same.body.latest_revision_id).toBe(created.body.latest_revision_id);
        // A changed build setting is a build input: a new revision builds with it.
        const rebuilt = await call('PATCH', `/v2/deployments/${id}`, { source_config: { build_command: 'true' } });
        expect(rebuilt.status).toBe(200);
        expect(rebuilt.body.latest_revision_id).not.toBe(created.body.latest_revision_id);
        expect(rebuilt.body.source_config).toMatchObject({ install_command: 'sleep 120', build_command: 'true' });
        // Secrets that change make a revision; the same secrets again do not.
        const secretA = await call('PATCH', `/v2/deployments/${id}`, { secrets: [{ name: 'A', value: '1' }] });
        expect(secretA.body.latest_revision_id).not.toBe(rebuilt.body.latest_revision_id);
        expect(secretA.body.secrets).toEqual([{ name: 'A' }]);
        const secretSame = await call('PATCH', `/v2/deployments/${id}`, { secrets: [{ name: 'A', value: '1' }] });
        expect(secretSame.body.latest_revision_id).toBe(secretA.body.latest_revision_id);
        expect((await call('GET', `/v2/deployments/${id}/revisions/not-a-uuid`)).status).toBe(404);
        expect((await call('GET', `/v2/deployments/${id}/revisions/${id}`)).status).toBe(404);
      } finally {
        await call('DELETE', `/v2/deployments/${id}`);
        await waitFor(() => call('GET', `/v2/deployments/${id}`), (r) => r.status === 404, 30_000);
      }
    });

    it('lists with filters and pages', async () => {
      const list = await call('GET', '/v2/deployments?limit=1&name_contains=nothing-like-this');
      expect(list).toEqual({ status: 200, body: { resources: [], offset: 0 } });
    });
  });
});
