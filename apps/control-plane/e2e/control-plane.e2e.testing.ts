// Shared pieces of the control plane's end-to-end suites: git repositories holding the example agent, REST calls
// through the gateway, polling, and what a deployment runs as (its process, its database).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createGitRepo, readTree, type GitRepo } from '@platform/control-plane-testing';
import type { TestPlatform } from '../../../tools/dev/test-platform';

export const REACT_AGENT_DIR = path.resolve(__dirname, '../../../examples/react-agent');

/** A git repository holding `examples/react-agent` on `main`. */
export function reactAgentRepo(): GitRepo {
  return createGitRepo(readTree(REACT_AGENT_DIR), 'cp-react-agent-');
}

/** A scratch work directory and, on Postgres, a database- and role-name prefix of this run's own (dropped afterwards). */
export function controlPlaneTestEnv() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-work-'));
  const prefix = `e2e${randomBytes(3).toString('hex')}_`;
  const env: Record<string, string | undefined> = {
    WORK_DIR: workDir,
    GIT_ALLOWED_URLS: 'file://',
    DEPLOYMENTS_DATABASE_URL: process.env.DATABASE_URL || undefined,
    DEPLOYMENTS_DATABASE_PREFIX: prefix,
    DRAIN_PERIOD: '1s',
    RECONCILER_POLL_INTERVAL: '300ms',
    DEPLOY_TIMEOUT: '60s',
    AGENT_LOG_LEVEL: 'warn',
  };
  const cleanup = async () => {
    fs.rmSync(workDir, { recursive: true, force: true });
    if (!process.env.DATABASE_URL) return;
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const left = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
      for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      const roles = await client.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`${prefix}%`]);
      for (const { rolname } of roles.rows) await client.query(`DROP ROLE IF EXISTS "${rolname}"`);
    } finally {
      await client.end();
    }
  };
  return { env, workDir, prefix, cleanup };
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** REST through the gateway as the admin key, in `tenantId` (default: the platform's workspace). */
export function api(platform: TestPlatform, tenantId = platform.workspaceId) {
  return async (method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${platform.gatewayUrl}${route}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': tenantId, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  };
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls a revision until `done`, collecting every status seen on the way. */
export async function pollRevision(call: ReturnType<typeof api>, deploymentId: string, revisionId: string, done: (status: string) => boolean, timeoutMs = 150_000) {
  const seen: string[] = [];
  const revision = await waitFor(
    async () => {
      const res = await call('GET', `/v2/deployments/${deploymentId}/revisions/${revisionId}`);
      expect(res.status).toBe(200);
      if (seen.at(-1) !== res.body.status) seen.push(res.body.status);
      return res.body;
    },
    (r) => done(r.status),
    timeoutMs,
  );
  return { revision, seen };
}

export const finished = (status: string) => status === 'DEPLOYED' || status.includes('FAILED') || status === 'SKIPPED' || status === 'INTERRUPTED';

/** Whether `seen` follows the happy-path order (polling may skip statuses, never reorder them). */
export function inHappyPathOrder(seen: string[]): boolean {
  const order = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING', 'DEPLOYED'];
  const positions = seen.map((s) => order.indexOf(s));
  return positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]));
}

/** Whether a process runs (zombies awaiting their parent's reaping do not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The environment a process started with (Linux /proc). */
export function environOf(pid: number): Record<string, string> {
  const raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  return Object.fromEntries(raw.split('\0').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** Agent Server processes (started by the local driver) serving `deploymentId`, found by their environment. */
export function agentProcessesOf(deploymentId: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = environOf(Number(entry));
      if (env.DEPLOYMENT_ID === deploymentId && env.PLATFORM_INSTANCE_ID) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/**
 * The instances (PLATFORM_INSTANCE_ID) whose processes serve `deploymentId`: unlike their pids, these do not change
 * when a running server starts a helper process of its own (a compiler service, a worker's child).
 */
export function agentInstancesOf(deploymentId: string): string[] {
  const instances = new Set<string>();
  for (const pid of agentProcessesOf(deploymentId)) {
    try {
      instances.add(environOf(pid).PLATFORM_INSTANCE_ID);
    } catch {
      // Gone since it was listed.
    }
  }
  return [...instances].sort();
}

/** GET with an explicit Host header (fetch() does not let one be set). */
export function getWithHost(url: string, host: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { ...headers, host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}
