import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { api, pollRevision, reactAgentRepo } from '../../apps/control-plane/e2e/control-plane.e2e.testing';
import type { GitRepo } from '@platform/control-plane-testing';
import { descendants, processAlive } from '@platform/http-server';
import type { TestPlatform } from './test-platform';

// `npm start` as a user runs it (node with tsx's loader, tools/dev/launch.ts), on a scratch data folder and ports,
// with a deployment whose Agent Server the local driver runs: no signal sequence may leave a process of its tree
// running, a second instance on the same data folder is refused before it opens anything, and a restart keeps the
// services' ports. Signals are sent while a busy process loads the CPU.
const ROOT = path.resolve(__dirname, '../..');
const POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

interface Launcher {
  child: ChildProcess;
  pid: number;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited: Promise<number>;
}

function launch(env: NodeJS.ProcessEnv): Launcher {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/dev/launch.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let code: number | undefined;
  child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve((code = c ?? (signal ? 128 : 0)))));
  return {
    child,
    pid: child.pid as number,
    output: () => text,
    exited,
    async waitFor(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = text.match(pattern);
        if (match) return match;
        if (code !== undefined) throw new Error(`launcher exited ${code} before ${pattern}:\n${text.slice(-4000)}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${text.slice(-4000)}`);
        await sleep(200);
      }
    },
  };
}

const isAgentServer = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes('PLATFORM_INSTANCE_ID=');
  } catch {
    return false;
  }
};

async function until<T>(read: () => T, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(200);
    value = read();
  }
  return value;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A GATEWAY_PORT whose whole block (gateway .. +13, the services' default ports) is free. */
async function freeBlock(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    let free = true;
    for (let i = 0; i <= 13 && free; i++) free = await portIsFree(base + i);
    if (free) return base;
  }
}

/** A process that keeps one CPU busy while the signals arrive. */
const cpuLoad = () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

describe('npm start: stopping, one instance per data folder, stable ports', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-lifecycle-data-'));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-lifecycle-work-'));
  const strays: number[] = [];
  const launchers: Launcher[] = [];
  let repo: GitRepo;
  let env: NodeJS.ProcessEnv;
  let base: number;
  let firstServices: string[] = [];
  const prefix = `lc${randomBytes(3).toString('hex')}_`;

  beforeAll(async () => {
    repo = reactAgentRepo();
    base = await freeBlock();
    // The services' databases on the test Postgres under a prefix of this run's own (five embedded PGlite databases
    // take minutes to migrate on a loaded machine; the lifecycle is the same); the data folder is a scratch one.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_|DEPLOYMENTS_DATABASE_|NATS_)/.test(k)));
    env = {
      ...inherited,
      DATABASE_URL: POSTGRES,
      DATABASE_PREFIX: prefix,
      DATA_DIR: dataDir,
      GATEWAY_PORT: String(base),
      WORK_DIR: workDir,
      GIT_ALLOWED_URLS: 'file://',
      DRAIN_PERIOD: '1s',
      DEPLOY_TIMEOUT: '180s',
      LOG_LEVEL: 'warn',
      AGENT_LOG_LEVEL: 'warn',
    };
  });
  afterAll(async () => {
    for (const l of launchers) if (l.child.exitCode === null) l.child.kill('SIGKILL');
    for (const pid of strays) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    repo?.remove();
    const client = new pg.Client({ connectionString: POSTGRES });
    await client.connect();
    try {
      const left = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
      for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** Sends `signals` (`delayMs` apart) under CPU load; resolves with the tree's processes still alive after the exit. */
  async function stopWith(launcher: Launcher, signals: NodeJS.Signals[], delayMs: number): Promise<{ servers: number[]; left: number[]; code: number }> {
    const tree = descendants(launcher.pid);
    const servers = tree.filter(isAgentServer);
    strays.push(...tree);
    const load = cpuLoad();
    try {
      for (const [i, signal] of signals.entries()) {
        if (i > 0 && delayMs) await sleep(delayMs);
        launcher.child.kill(signal);
      }
      const code = await Promise.race([launcher.exited, sleep(120_000).then(() => -1)]);
      // Nothing of the tree may outlive the launcher; /proc may lag a reap by a moment.
      const left = await until(() => tree.filter(processAlive), (l) => l.length === 0, 3_000);
      return { servers, left, code };
    } finally {
      load.kill('SIGKILL');
    }
  }

  it('a double Ctrl-C (two SIGINTs 100 ms apart) stops the deployment Agent Servers before the launcher exits', async () => {
    const first = launch(env);
    launchers.push(first);
    await first.waitFor(/Agent platform is up/, 300_000);

    const adminKey = (await first.waitFor(/Admin API key \(X-Api-Key\): (\S+)/, 1_000))[1];
    const workspaceId = (await first.waitFor(/Workspace \(X-Tenant-Id\): (\S+)/, 1_000))[1];
    const call = api({ gatewayUrl: `http://127.0.0.1:${base}`, adminKey, workspaceId } as TestPlatform);
    const created = await call('POST', '/v2/deployments', {
      name: 'lifecycle-agent',
      source: 'github',
      source_config: { repo_url: repo.url, deployment_type: 'dev' },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      secrets: [],
    });
    expect(created.status).toBe(201);
    const { revision } = await pollRevision(call, created.body.id, created.body.latest_revision_id, (s) => s === 'DEPLOYED' || s.includes('FAILED'), 300_000);
    expect(revision.status).toBe('DEPLOYED');

    const { servers, left, code } = await stopWith(first, ['SIGINT', 'SIGINT'], 100);
    expect(servers.length).toBeGreaterThan(0);
    expect(code).not.toBe(-1);
    expect(left).toEqual([]);

    // The documented ports: GATEWAY_PORT + 1..5 (HTTP), + 11..13 (gRPC).
    firstServices = first.output().match(/^ {4}(control-plane|tracing|export|export-worker|agent-server) .*$/gm) ?? [];
    expect(firstServices.join('\n')).toContain(`control-plane  http://127.0.0.1:${base + 1} grpc :${base + 11}`);
    expect(firstServices.join('\n')).toContain(`tracing        http://127.0.0.1:${base + 2} grpc :${base + 12}`);
    expect(firstServices.join('\n')).toContain(`export         http://127.0.0.1:${base + 3} grpc :${base + 13}`);
  }, 900_000);

  it('refuses a second instance on the same data folder naming the first; keeps its ports across a restart; SIGTERM then SIGINT leaves nothing', async () => {
    const second = launch(env);
    launchers.push(second);
    await second.waitFor(/Agent platform is up/, 300_000);
    const services = second.output().match(/^ {4}(control-plane|tracing|export|export-worker|agent-server) .*$/gm) ?? [];
    expect(services).toEqual(firstServices);

    // Another instance on the same folder, even on other ports: refused before it opens a database.
    const third = launch({ ...env, GATEWAY_PORT: '0' });
    launchers.push(third);
    expect(await Promise.race([third.exited, sleep(120_000).then(() => -1)])).toBe(1);
    expect(third.output()).toContain(`is in use by another instance (pid ${second.pid}, http://127.0.0.1:${base}, npm start`);
    expect(third.output()).not.toContain('Starting the services');

    // The deployment comes back (the local driver starts its Agent Server again).
    const servers = await until(() => descendants(second.pid).filter(isAgentServer), (s) => s.length > 0, 180_000);
    expect(servers.length).toBeGreaterThan(0);

    const { left, code } = await stopWith(second, ['SIGTERM', 'SIGINT'], 0);
    expect(servers.every((pid) => !processAlive(pid))).toBe(true);
    expect(code).not.toBe(-1);
    expect(left).toEqual([]);
    // Its lock went with it: the folder is free again.
    expect(fs.existsSync(path.join(dataDir, 'instance.lock'))).toBe(false);
  }, 900_000);
});
