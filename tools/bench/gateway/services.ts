// The three services of the gateway benchmark, each a process of its own on its own Postgres database: the gateway,
// the control plane (which the gateway asks where a deployment is, over gRPC) and an Agent Server (the deployment).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/http-server';
import { openControlPlaneDatabase } from '@platform/control-plane-data-access';
import { upsertStaticDeployment } from '../../dev/static-deployment';
import { waitForOk, type StartedServer } from '../agent-server/servers';
import { serviceCommand, type ServiceMode } from '../service-build';

const ROOT = path.resolve(__dirname, '../../..');

/** A process of the benchmark: a service (`command` from serviceCommand) or a tool script. */
function startProcess(name: string, { command, args }: { command: string; args: string[] }, env: Record<string, string>, out: number | 'ignore', root = ROOT): ChildProcess {
  return spawn(command, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', MIGRATE_ON_START: 'true', LANGSMITH_TRACING: 'false', ...env },
    stdio: ['ignore', out, 'inherit'],
  }).once('error', (err) => console.error(`${name}: ${err.message}`));
}

export interface StartedControlPlane extends StartedServer {
  grpcAddress: string;
}

export async function startControlPlane(databaseUrl: string, internalSecret: string, mode: ServiceMode): Promise<StartedControlPlane> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  const child = startProcess(
    'control plane',
    serviceCommand(ROOT, 'control-plane', mode),
    { DATABASE_URL: databaseUrl, INTERNAL_SECRET: internalSecret, PORT: String(port), GRPC_PORT: String(grpcPort), LOG_LEVEL: 'warn' },
    'ignore',
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, 'control plane');
  return { url, child, grpcAddress: `127.0.0.1:${grpcPort}` };
}

export interface StartedGateway extends StartedServer {
  adminKey: string;
  workspaceId: string;
}

/**
 * The gateway at its default log level (one access-log line per request, as deployed), its output to a file: the
 * first start prints the bootstrap admin key there.
 */
export async function startGateway(options: {
  databaseUrl: string;
  internalSecret: string;
  controlPlane: StartedControlPlane;
  logLevel: string;
  /** The checkout to run it from (default this one): another commit's, for an A/B run. */
  root?: string;
  mode: ServiceMode;
}): Promise<StartedGateway> {
  const port = await freePort();
  const logFile = path.join(os.tmpdir(), `bench-gateway-${port}.log`);
  const out = openSync(logFile, 'w');
  // BENCH_PROFILE=<dir>: a V8 CPU profile of the gateway there, written when it stops.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const root = options.root ?? ROOT;
  const child = startProcess(
    'gateway',
    serviceCommand(root, 'gateway', options.mode, profile),
    {
      DATABASE_URL: options.databaseUrl,
      INTERNAL_SECRET: options.internalSecret,
      PORT: String(port),
      CONTROL_PLANE_URL: options.controlPlane.url,
      CONTROL_PLANE_GRPC: options.controlPlane.grpcAddress,
      // Not measured here: no request goes there.
      TRACING_URL: 'http://127.0.0.1:9',
      EXPORT_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: options.logLevel,
    },
    out,
    root,
  );
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, 'gateway');
  const banner = readFileSync(logFile, 'utf8');
  const adminKey = /Admin API key \(X-Api-Key\): (\S+)/.exec(banner)?.[1];
  const workspaceId = /Workspace \(X-Tenant-Id\): (\S+)/.exec(banner)?.[1];
  if (!adminKey || !workspaceId) throw new Error(`the gateway printed no bootstrap key (see ${logFile})`);
  return { url, child, adminKey, workspaceId };
}

/** Registers the Agent Server at `upstreamUrl` as the READY deployment `id` of `tenantId` (the id whose key it verifies). */
export async function registerDeployment(controlPlaneDatabaseUrl: string, tenantId: string, upstreamUrl: string, id: string): Promise<string> {
  const db = await openControlPlaneDatabase({ url: controlPlaneDatabaseUrl, dataDir: 'unused' });
  try {
    return await upsertStaticDeployment(db, { tenantId, name: `bench-${tenantId.slice(0, 8)}`, upstreamUrl, id });
  } finally {
    await db.close();
  }
}

/** The bare proxy (./bare-proxy.ts) in front of `upstreamUrl`. */
export async function startBareProxy(upstreamUrl: string, kind: 'bare' | 'library' = 'bare'): Promise<StartedServer> {
  const port = await freePort();
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const name = kind === 'bare' ? 'bare proxy' : 'library floor';
  const child = startProcess(name, { command: tsx, args: [path.join(__dirname, 'bare-proxy.ts'), String(port), upstreamUrl, kind] }, {}, 'ignore');
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, name);
  return { url, child };
}
