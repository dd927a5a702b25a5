import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { deploymentKey } from '@platform/identity';
import { startTestPlatform, TEST_INTERNAL_SECRET, type TestPlatform } from '../../../tools/dev/test-platform';
import { api, controlPlaneTestEnv, finished, pollRevision, type Json } from './control-plane.e2e.testing';

const HOSTILE_DIR = path.join(__dirname, 'fixtures/hostile-tenant');

interface Outcome {
  ok: boolean;
  detail: string;
}
interface Report {
  uid: number;
  env: Record<string, string>;
  outcomes: Record<string, Outcome>;
}

/** A project folder as the .tar.gz `agent-platform deploy` uploads. */
const archive = (dir: string): Buffer => execFileSync('tar', ['-czf', '-', '-C', dir, '.']);

/** A receiver on 127.0.0.1 that records every request it gets (an internal service a webhook must not reach). */
async function startReceiver(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('internal');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Issue 38 item 7, the proof: a graph deployed through the control plane (local driver, real Agent Server) in
// workspace B does what an attacker's code would, with everything its process is given, against workspace A and
// the platform; and B's owner points the platform's outbound features at internal addresses. Every attempt fails,
// and no answer carries what it was after.
describe('a hostile tenant (workspace B) against the platform and workspace A', () => {
  let platform: TestPlatform;
  const testEnv = controlPlaneTestEnv();
  let workspaceA: string;
  let organizationA: string;
  let workspaceB: string;
  let asA: ReturnType<typeof api>;
  let asB: ReturnType<typeof api>;
  let uploadA: Json;
  let uploadB: Json;
  let deploymentB: Json;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const upload = async (tenantId: string, name: string): Promise<Json> => {
    const res = await fetch(`${platform.gatewayUrl}/v2/sources/${name}`, {
      method: 'POST',
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': tenantId, 'content-type': 'application/gzip' },
      body: archive(HOSTILE_DIR),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Json;
  };

  /** Runs the hostile graph once with `attempts` (see fixtures/hostile-tenant/hostile.ts); its report. */
  const attack = async (attempts: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Report> => {
    const res = await fetch(`${deploymentB.source_config.custom_url}/runs/wait`, {
      method: 'POST',
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': workspaceB, 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'hostile', input: {}, config: { configurable: { attempts } }, ...extra }),
    });
    const text = await res.text();
    expect([res.status, text.slice(0, 300)]).toEqual([200, expect.any(String)]);
    return (JSON.parse(text) as { report: Report }).report;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    // The export service under the operator's default egress policy (public addresses only): nothing in this suite
    // needs a local S3.
    // Remote repositories allowed as by default (https://), under the control plane's default egress policy.
    platform = await startTestPlatform({ controlPlaneEnv: { ...testEnv.env, GIT_ALLOWED_URLS: 'file://,https://', DEPLOYMENT_EGRESS_ALLOWED_HOSTS: 'hooks.internal' }, exportEnv: { EGRESS_ALLOWED_CIDRS: '' } });
    workspaceA = platform.workspaceId;
    organizationA = platform.gateway.bootstrap!.organization.id;
    const created = await fetch(`${platform.gatewayUrl}/api/v1/workspaces`, {
      method: 'POST',
      headers: { 'x-api-key': platform.adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'attacker' }),
    });
    expect(created.status).toBeLessThan(300);
    workspaceB = ((await created.json()) as Json).id;
    asA = api(platform, workspaceA);
    asB = api(platform, workspaceB);

    // A's data: a tracing project and an uploaded source.
    expect((await asA('POST', '/api/v1/sessions', { name: 'victim-project' })).status).toBeLessThan(300);
    uploadA = await upload(workspaceA, 'victim');

    // B's graph, uploaded and deployed as any tenant's.
    uploadB = await upload(workspaceB, 'hostile');
    const deployed = await asB('POST', '/v2/deployments', {
      name: 'hostile',
      source: 'github',
      source_config: { repo_url: uploadB.repo_url },
      source_revision_config: { repo_ref: uploadB.repo_ref, langgraph_config_path: 'langgraph.json' },
      secrets: [],
    });
    expect([deployed.status, deployed.body.detail]).toEqual([201, undefined]);
    const { revision } = await pollRevision(asB, deployed.body.id, deployed.body.latest_revision_id, finished);
    expect([revision.status, revision.status_message]).toEqual(['DEPLOYED', null]);
    deploymentB = (await asB('GET', `/v2/deployments/${deployed.body.id}`)).body;
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
    await testEnv.cleanup();
  });

  it('finds only its own key in its environment: no platform secret, no admin database URL', async () => {
    const report = await attack({});
    expect(report.env.INTERNAL_SECRET).toBeUndefined();
    expect(Object.entries(report.env).filter(([, value]) => value.includes(TEST_INTERNAL_SECRET))).toEqual([]);
    expect(report.env.DEPLOYMENT_ID).toBe(deploymentB.id);
    expect(report.env.DEPLOYMENT_KEY).toBe(deploymentKey(TEST_INTERNAL_SECRET, deploymentB.id));
    expect(report.env.DEPLOYMENT_KEY).not.toBe(deploymentKey(TEST_INTERNAL_SECRET, platform.agentDeploymentId));
    // No variable names the platform's own databases or the operator's admin connection.
    const platformUrls = [process.env.DATABASE_URL, ...Object.values(platform.databases).map((d) => d.url)].filter((u): u is string => !!u);
    expect(Object.entries(report.env).filter(([, value]) => platformUrls.some((u) => value.includes(u)))).toEqual([]);
    if (process.env.DATABASE_URL) expect(new URL(report.env.DATABASE_URL).username).not.toBe(new URL(process.env.DATABASE_URL).username);
    // Its egress allowlist is the operator's for deployments (DEPLOYMENT_EGRESS_ALLOWED_*), and B cannot set its own.
    expect([report.env.EGRESS_ALLOWED_CIDRS, report.env.EGRESS_ALLOWED_HOSTS]).toEqual(['', 'hooks.internal']);
    const widened = await asB('PATCH', `/v2/deployments/${deploymentB.id}`, { secrets: [{ name: 'EGRESS_ALLOWED_CIDRS', value: '0.0.0.0/0' }] });
    expect([widened.status, widened.body.detail?.[0]?.msg]).toEqual([422, 'EGRESS_ALLOWED_CIDRS is set by the platform and cannot be a secret']);
  });

  (process.getuid?.() === 0 ? it : it.skip)("runs as a user of its own and reads none of the platform's files nor A's upload", async () => {
    const sourcesA = path.join(testEnv.workDir, 'sources', workspaceA);
    const closed = [
      testEnv.workDir,
      path.join(testEnv.workDir, 'sources'),
      sourcesA,
      new URL(uploadA.repo_url).pathname,
      path.join(testEnv.workDir, 'builds'),
      // The control plane's process (this one: it holds the internal secret and the admin database URL).
      `/proc/${process.pid}/environ`,
    ];
    const report = await attack(Object.fromEntries(closed.map((p) => [p, { kind: 'read', path: p }])));
    expect(report.uid).not.toBe(0);
    for (const p of closed) expect([p, report.outcomes[p]]).toEqual([p, { ok: false, detail: 'EACCES' }]);
  });

  it("connects to its own database, and to no other with the URL it was given", async () => {
    if (!process.env.DATABASE_URL) return void process.stderr.write('SKIPPED: Postgres attempts (DATABASE_URL unset)\n');
    const own = new URL(deploymentB && (await attack({})).env.DATABASE_URL).pathname.slice(1);
    const others = [...Object.values(platform.databases).map((d) => new URL(d.url!).pathname.slice(1)), new URL(process.env.DATABASE_URL).pathname.slice(1) || 'postgres', 'template1'];
    const report = await attack({
      own: { kind: 'postgres', database: own, query: 'SELECT current_user AS me' },
      ...Object.fromEntries(others.map((d) => [d, { kind: 'postgres', database: d, query: 'SELECT 1' }])),
    });
    expect(report.outcomes.own.ok).toBe(true);
    for (const d of others) expect([d, report.outcomes[d].ok, report.outcomes[d].detail]).toEqual([d, false, expect.stringMatching(/^42501 permission denied for database/)]);
  });

  it("is refused (401) on every internal port, unsigned or signed as workspace A with its own key", async () => {
    const agentA = platform.replicas['agent-server'][0].url;
    const targets: [string, string, string?][] = [
      ['tracing', `${platform.services.tracing.url}/api/v1/sessions`],
      ['export', `${platform.services.export.url}/api/v1/bulk-exports`],
      ['control plane', `${platform.services['control-plane'].url}/v2/deployments`],
      ['gateway internal', `${platform.gatewayUrl}/internal/v1/service-keys`, '{}'],
      ["A's agent server", `${agentA}/threads/search`, '{}'],
    ];
    const forges = {
      unsigned: undefined,
      'as A': { tenantId: workspaceA, organizationId: organizationA },
      'as A, for its own deployment': { tenantId: workspaceA, organizationId: organizationA, deploymentId: deploymentB.id },
      "as A, for A's agent server": { tenantId: workspaceA, organizationId: organizationA, deploymentId: platform.agentDeploymentId },
    };
    const attempts: Record<string, unknown> = {};
    for (const [name, url, body] of targets) {
      for (const [how, forge] of Object.entries(forges)) {
        attempts[`${name} ${how}`] = { kind: 'http', url, method: body ? 'POST' : 'GET', body, forge };
      }
    }
    const report = await attack(attempts);
    const statuses = Object.fromEntries(Object.entries(report.outcomes).map(([label, o]) => [label, o.detail.slice(0, 3)]));
    // 401 everywhere; A's agent server answers a request claiming another deployment 403 before any signature
    // check (it names only the deployment the request claimed).
    const expected = (label: string) => (label === "A's agent server as A, for its own deployment" ? '403' : '401');
    expect(statuses).toEqual(Object.fromEntries(Object.keys(attempts).map((label) => [label, expected(label)])));
    expect(report.outcomes["A's agent server as A, for its own deployment"].detail).toBe(`403 {"detail":"This server does not serve deployment ${deploymentB.id}"}`);
    // Nothing of A's came back in any refusal.
    expect(Object.values(report.outcomes).filter((o) => o.detail.includes('victim-project'))).toEqual([]);
    // The same requests signed with the platform's secret are answered: the refusals are the key's, not the form's.
    const sessions = await asA('GET', '/api/v1/sessions');
    expect(sessions.body.map((s: Json) => s.name)).toContain('victim-project');
  });

  it("cannot deploy A's uploaded source, directly or by a path through its own", async () => {
    const ownRepo = uploadB.repo_url as string;
    const urls = [
      uploadA.repo_url,
      `${ownRepo}/../../${workspaceA}/victim`,
      `${ownRepo}/../../${workspaceA}/victim/`,
      `${ownRepo}/%2e%2e/%2e%2e/${workspaceA}/victim`,
      `file://${path.join(testEnv.workDir, 'sources', workspaceB)}/../${workspaceA}/victim`,
    ];
    const answers = [];
    for (const repoUrl of urls) {
      const res = await asB('POST', '/v2/deployments', {
        name: `steal-${randomUUID().slice(0, 8)}`,
        source: 'github',
        source_config: { repo_url: repoUrl },
        source_revision_config: { repo_ref: uploadA.repo_ref, langgraph_config_path: 'langgraph.json' },
        secrets: [],
      });
      answers.push([repoUrl, res.status, res.body.detail?.[0]?.loc]);
    }
    expect(answers).toEqual(urls.map((u) => [u, 422, ['body', 'source_config', 'repo_url']]));
    expect((await asB('GET', '/v2/deployments')).body.resources.map((d: Json) => d.name)).toEqual(['hostile']);
  });

  it('cannot deploy from an https repository at an internal address: 422 naming the rule, nothing reached', async () => {
    const urls = ['https://10.0.0.1/org/repo.git', 'https://169.254.169.254/repo.git', receiver.url.replace('http:', 'https:') + '/repo.git', receiver.url.replace('http://127.0.0.1', 'https://localhost') + '/repo.git'];
    const answers = [];
    for (const repoUrl of urls) {
      const res = await asB('POST', '/v2/deployments', {
        name: `ssrf-${randomUUID().slice(0, 8)}`,
        source: 'github',
        source_config: { repo_url: repoUrl },
        source_revision_config: { repo_ref: 'main' },
        secrets: [],
      });
      answers.push([repoUrl, res.status, res.body.detail]);
    }
    expect(answers).toEqual(
      urls.map((u) => [u, 422, [{ loc: ['body', 'source_config', 'repo_url'], type: 'value_error', msg: expect.stringMatching(/^repo_url is refused: .* leads to a (loopback|private|link-local) address .*\(EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS\)$/) }]]),
    );
    expect(receiver.hits).toEqual([]);
  });

  it('cannot point an export destination at internal addresses: refused by rule, nothing reached', async () => {
    const endpoints = [
      receiver.url,
      receiver.url.replace('127.0.0.1', 'localhost'),
      platform.services.tracing.url,
      'http://169.254.169.254',
      'http://10.0.0.1:9000',
    ];
    const answers = [];
    for (const endpoint of endpoints) {
      const res = await asB('POST', '/api/v1/bulk-exports/destinations', {
        destination_type: 's3',
        display_name: 'internal',
        config: { bucket_name: 'b', prefix: 'p', region: 'us-east-1', endpoint_url: endpoint, config_kwargs_s3: { addressing_style: 'path' } },
        credentials: { access_key_id: 'k', secret_access_key: 's' },
      });
      answers.push([endpoint, res.status, res.body.detail]);
    }
    expect(answers).toEqual(
      endpoints.map((e) => [e, 400, expect.stringMatching(/^Failed to validate S3 destination: Invalid endpoint: .* leads to a (loopback|link-local|private) address .*\(EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS\)$/)]),
    );
    expect(receiver.hits).toEqual([]);
    expect((await asB('GET', '/api/v1/bulk-exports/destinations')).body).toEqual([]);
  });

  it("cannot point its runs' webhooks at internal addresses: the run succeeds, the receiver gets nothing", async () => {
    const hooks = [`${receiver.url}/hook`, `${receiver.url.replace('127.0.0.1', 'localhost')}/hook`, `${platform.services['control-plane'].url}/v2/deployments`];
    for (const webhook of hooks) {
      const report = await attack({}, { webhook });
      expect(report.env.DEPLOYMENT_ID).toBe(deploymentB.id);
    }
    // The webhook goes out once the run is stored; give it the time a POST to a listening loopback port takes.
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && receiver.hits.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.hits).toEqual([]);
  });
});
