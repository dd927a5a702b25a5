import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { signIdentity } from '@platform/identity';
import { agentInstancesOf, agentProcessesOf, controlPlaneTestEnv, isRunning, reactAgentRepo, waitFor, type Json } from './control-plane.e2e.testing';
import { freePort } from '@platform/http-server';

const ROOT = path.resolve(__dirname, '../../..');
const SECRET = 'restart-e2e-internal-secret-0123456789';
const TENANT = randomUUID();
const ORG = randomUUID();

interface ControlPlaneProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

// The control plane as its own OS process, killed with SIGKILL mid-work and started again on the same database:
// the revision in progress completes (or fails, when out of attempts), and a successor adopts the Agent Server
// its predecessor left running.
describe('control plane killed mid-build (separate process, SIGKILL)', () => {
  const testEnv = controlPlaneTestEnv();
  const repo = reactAgentRepo();
  let scratch: ScratchDatabase | undefined;
  let dataDir: string;
  const started: ControlPlaneProcess[] = [];
  let port: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-restart-data-'));
    if (process.env.DATABASE_URL) scratch = await createScratchPostgresDatabase(process.env.DATABASE_URL);
    port = await freePort('127.0.0.1');
  });

  // Whatever a test left running goes before the next one takes the port.
  afterEach(async () => {
    for (const cp of started.splice(0)) {
      if (cp.child.exitCode !== null || cp.child.signalCode !== null) continue;
      kill(cp, 'SIGKILL');
      await new Promise((resolve) => cp.child.once('exit', resolve));
    }
  });

  afterAll(async () => {
    await scratch?.drop();
    await testEnv.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
    repo.remove();
  });

  // SIGKILL takes the whole process group (tsx and the node process under it); SIGTERM goes to the leader only,
  // as a process manager would send it, and tsx passes it on once.
  function kill(cp: ControlPlaneProcess, signal: NodeJS.Signals): void {
    try {
      process.kill(signal === 'SIGKILL' ? -(cp.child.pid as number) : (cp.child.pid as number), signal);
    } catch {
      // Already gone.
    }
  }

  async function startControlPlane(extra: Record<string, string> = {}): Promise<ControlPlaneProcess> {
    let output = '';
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/control-plane/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: String(port),
        GRPC_PORT: '0',
        INTERNAL_SECRET: SECRET,
        LOG_LEVEL: 'info',
        AGENT_LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
        MIGRATE_ON_START: 'true',
        RECONCILER_LEASE_TTL: '2s',
        ...(Object.fromEntries(Object.entries(testEnv.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
        ...extra,
      },
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const cp = { child, url: `http://127.0.0.1:${port}`, output: () => output };
    started.push(cp);
    await waitFor(() => fetch(`${cp.url}/ok`).then((r) => r.status, () => 0), (s) => s === 200, 60_000);
    return cp;
  }

  async function call(cp: ControlPlaneProcess, method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const requestId = randomUUID();
    const res = await fetch(`${cp.url}${route}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId: TENANT, organizationId: ORG, subject: 'e2e' }, requestId) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  const buildLog = (d: Json) => {
    try {
      return fs.readFileSync(path.join(testEnv.workDir, 'logs', d.id, `${d.latest_revision_id}-build.log`), 'utf8');
    } catch {
      return '';
    }
  };

  const revisionOf = async (cp: ControlPlaneProcess, d: Json) => (await call(cp, 'GET', `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}`)).body;

  async function createSlowDeployment(cp: ControlPlaneProcess, name: string, installCommand = 'sleep 6'): Promise<Json> {
    const created = await call(cp, 'POST', '/v2/deployments', {
      name,
      source: 'github',
      source_config: { repo_url: repo.url, install_command: installCommand },
      source_revision_config: { repo_ref: 'main' },
      secrets: [],
    });
    expect(created.status).toBe(201);
    await waitFor(() => revisionOf(cp, created.body), (r) => r.status === 'BUILDING', 60_000);
    // Mid-build for sure: the checkout is done and the install command runs.
    await waitFor(async () => buildLog(created.body), (log) => log.includes(`$ ${installCommand}`), 60_000);
    return created.body;
  }

  /** `sleep` processes building a revision of `deploymentId`: running in its checkout under WORK_DIR/builds. */
  function buildsOf(deploymentId: string): number[] {
    const root = path.join(testEnv.workDir, 'builds', deploymentId);
    return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep' && fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(root) && isRunning(pid);
      } catch {
        return false;
      }
    });
  }

  it('resumes the interrupted build after a restart, then a successor adopts the running Agent Server', async () => {
    const first = await startControlPlane();
    const deployment = await createSlowDeployment(first, 'survives-kill');
    kill(first, 'SIGKILL');
    await waitFor(() => fetch(`${first.url}/ok`).then(() => 1, () => 0), (up) => up === 0, 10_000);

    const second = await startControlPlane();
    const revision = await waitFor(() => revisionOf(second, deployment), (r) => r.status === 'DEPLOYED' || r.status.includes('FAILED'), 150_000);
    expect(revision.status).toBe('DEPLOYED');
    // Built twice: the interrupted attempt, then the whole step again on the successor.
    expect(buildLog(deployment).match(/\$ sleep 6/g)).toHaveLength(2);
    const servers = agentProcessesOf(deployment.id);
    const instances = agentInstancesOf(deployment.id);
    expect(servers.length).toBeGreaterThan(0);

    kill(second, 'SIGKILL');
    await waitFor(() => fetch(`${second.url}/ok`).then(() => 1, () => 0), (up) => up === 0, 10_000);
    expect(servers.filter(isRunning)).toEqual(servers);
    const third = await startControlPlane();
    await waitFor(async () => third.output(), (out) => out.includes('adopted running agent server'), 60_000);
    expect(servers.filter(isRunning)).toEqual(servers);
    // Adopted, not started again: the same instance, no other.
    expect(agentInstancesOf(deployment.id)).toEqual(instances);

    expect((await call(third, 'DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
    await waitFor(() => call(third, 'GET', `/v2/deployments/${deployment.id}`), (r) => r.status === 404, 60_000);
    await waitFor(async () => servers.filter(isRunning), (alive) => alive.length === 0, 15_000);
    kill(third, 'SIGTERM');
    const code = await new Promise<number | null>((resolve) => third.child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });

  it('leaves no build of the killed control plane running: after the restart exactly one build runs', async () => {
    const first = await startControlPlane();
    const deployment = await createSlowDeployment(first, 'one-build-at-a-time', 'sleep 40');
    // Logged as it starts: the process follows within moments.
    await waitFor(async () => buildsOf(deployment.id), (pids) => pids.length === 1, 10_000);
    kill(first, 'SIGKILL');
    await waitFor(() => fetch(`${first.url}/ok`).then(() => 1, () => 0), (up) => up === 0, 10_000);
    // The build dies with its control plane (it ran in a process group of its own, out of reach of the kill).
    await waitFor(async () => buildsOf(deployment.id), (pids) => pids.length === 0, 10_000);

    const second = await startControlPlane();
    await waitFor(async () => buildLog(deployment), (log) => log.match(/\$ sleep 40/g)?.length === 2, 60_000);
    await waitFor(async () => buildsOf(deployment.id), (pids) => pids.length > 0, 10_000);
    expect(buildsOf(deployment.id)).toHaveLength(1);
    expect(await revisionOf(second, deployment)).toMatchObject({ status: 'BUILDING' });

    expect((await call(second, 'DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
    await waitFor(() => call(second, 'GET', `/v2/deployments/${deployment.id}`), (r) => r.status === 404, 60_000);
    await waitFor(async () => buildsOf(deployment.id), (pids) => pids.length === 0, 15_000);
    kill(second, 'SIGTERM');
    await new Promise((resolve) => second.child.on('exit', resolve));
  });

  it('fails the interrupted build when it has no attempts left', async () => {
    const first = await startControlPlane({ RECONCILER_MAX_ATTEMPTS: '1' });
    const deployment = await createSlowDeployment(first, 'out-of-attempts');
    kill(first, 'SIGKILL');
    await waitFor(() => fetch(`${first.url}/ok`).then(() => 1, () => 0), (up) => up === 0, 10_000);

    const second = await startControlPlane({ RECONCILER_MAX_ATTEMPTS: '1' });
    const revision = await waitFor(() => revisionOf(second, deployment), (r) => r.status !== 'BUILDING', 60_000);
    expect(revision).toMatchObject({ status: 'BUILD_FAILED', status_message: 'Build was interrupted 1 times (control-plane restarts); giving up' });
    expect((await call(second, 'DELETE', `/v2/deployments/${deployment.id}`)).status).toBe(204);
    await waitFor(() => call(second, 'GET', `/v2/deployments/${deployment.id}`), (r) => r.status === 404, 60_000);
    kill(second, 'SIGTERM');
    await new Promise((resolve) => second.child.on('exit', resolve));
  });
});
