// Starting the two Agent Servers that the benchmark and the conformance harness compare: this one (on Postgres,
// admitting only gateway-signed requests) and the reference JS dev server (`@langchain/langgraph-cli` 1.5.1 `dev`,
// pinned in ./reference and installed there with `npm ci` on first use; registry only, no binaries).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { serviceCommand, type ServiceMode } from '../service-build';

const ROOT = path.resolve(__dirname, '../../..');
const REFERENCE_DIR = path.join(__dirname, 'reference');

export async function waitForOk(url: string, child: ChildProcess, name: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before answering /ok`);
    try {
      const res = await fetch(`${url}/ok`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not answer /ok within ${timeoutMs / 1000} s`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

function ensureReferenceInstalled(): void {
  if (existsSync(path.join(REFERENCE_DIR, 'node_modules', '.bin', 'langgraphjs'))) return;
  console.log('installing the reference server (npm ci in tools/bench/agent-server/reference) ...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: REFERENCE_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci of the reference server failed');
}

export interface StartedServer {
  url: string;
  child: ChildProcess;
}

/**
 * The reference dev server on a free port, serving `configPath` (its in-memory state is persisted under the
 * project's `.langgraph_api`; pass `fresh` to start from nothing). Its output goes to `log` (a file descriptor) or
 * nowhere.
 */
export async function startReferenceServer(configPath: string, options: { fresh?: boolean; log?: number } = {}): Promise<StartedServer> {
  ensureReferenceInstalled();
  if (options.fresh) {
    const { rmSync } = await import('node:fs');
    rmSync(path.join(path.dirname(configPath), '.langgraph_api'), { recursive: true, force: true });
  }
  const port = await freePort();
  const child = spawn(
    path.join(REFERENCE_DIR, 'node_modules', '.bin', 'langgraphjs'),
    ['dev', '--port', String(port), '--host', '127.0.0.1', '--no-browser', '--no-reload', '--config', configPath],
    {
      cwd: REFERENCE_DIR,
      env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: '1', LANGSMITH_TRACING: 'false' },
      stdio: ['ignore', options.log ?? 'ignore', options.log ?? 'ignore'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, 'reference server');
  return { url, child };
}

/** Whether the Agent Server of the checkout at `root` takes DEPLOYMENT_KEY (newer) or INTERNAL_SECRET (older). */
function readsDeploymentKey(root: string): boolean {
  try {
    return readFileSync(path.join(root, 'apps/agent-server/src/config.ts'), 'utf8').includes('DEPLOYMENT_KEY');
  } catch {
    return true;
  }
}

/** This server (`apps/agent-server`) on a free port, serving `configPath` from the Postgres database `databaseUrl`. */
export async function startAgentServer(options: {
  databaseUrl: string;
  configPath: string;
  /** The key requests are signed with (gatewayHeaders): the server's DEPLOYMENT_KEY (32+ characters). */
  deploymentKey: string;
  env?: Record<string, string>;
  /** Where its stderr goes (a file descriptor); this process's own stderr by default. */
  log?: number;
  /** Another checkout (with node_modules) to run the server from: an A/B against other code. Default this one. */
  root?: string;
  /** Node/V8 flags for the server's process (e.g. `--max-semi-space-size=32`). */
  nodeFlags?: string[];
  /** Its production bundle (`built`, what is deployed) or its source through tsx (default `source`). */
  mode?: ServiceMode;
}): Promise<StartedServer> {
  const root = options.root ?? ROOT;
  const port = await freePort();
  // BENCH_PROFILE=<dir>: a V8 CPU profile of this server's process there, written when it stops.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const { command, args } = serviceCommand(root, 'agent-server', options.mode ?? 'source', [...profile, ...(options.nodeFlags ?? [])]);
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      MIGRATE_ON_START: 'true',
      // A baseline checkout from before deployment keys verified with the platform's secret instead.
      ...(readsDeploymentKey(root) ? { DEPLOYMENT_KEY: options.deploymentKey, INTERNAL_SECRET: undefined } : { INTERNAL_SECRET: options.deploymentKey }),
      LANGGRAPH_CONFIG_PATH: options.configPath,
      // As the reference dev server, runs record where the server is.
      LANGGRAPH_API_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      LANGSMITH_TRACING: 'false',
      ...options.env,
    },
    stdio: ['ignore', options.log ?? 'ignore', options.log ?? 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, 'agent server');
  return { url, child };
}

/**
 * Headers that admit a request to this server as if the gateway had forwarded it: a signature is valid for 5
 * minutes, so sign anew for each client.
 */
export function gatewayHeaders(
  secret: string,
  identity: { tenantId: string; organizationId: string; subject: string } = { tenantId: randomUUID(), organizationId: randomUUID(), subject: 'bench' },
): Record<string, string> {
  const requestId = `${identity.subject}-${randomUUID()}`;
  return { 'x-request-id': requestId, ...signIdentity(secret, identity, requestId) };
}
