// Gateway benchmark: the gateway, the control plane and an Agent Server as separate processes on Postgres (a scratch
// database each); `GET /assistants/{id}` and `/ok` of the Agent Server, through the gateway (API key + workspace
// header) and direct (gateway-signed identity headers), interleaved, with keep-alive clients; req/s, p50, CPU per
// request of every process from /proc, and the gateway/direct ratios.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/gateway/run.ts [--requests=5000] [--concurrency=20] [--rounds=2] [--log-level=info] [--baseline=<checkout>] [--bare-proxy] [--library-floor] [--gateways-only] [--paths=assistant,ok] [--source]
// `--baseline=<dir>`: a second gateway from another checkout (e.g. `git archive` of main, node_modules linked), measured
// interleaved with this one against the same control plane and Agent Server: an A/B in one time window. The services
// run from their production bundles, as deployed (built first by Nx; ../service-build.ts says why), or from source
// through tsx with `--source`. The bare proxy (./bare-proxy.ts, a script) runs through tsx either way.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { deploymentKey } from '@platform/identity';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { busyPercent, cpuSecondsBetween, machineCpu, processCpuSeconds, processTreeCpuSeconds } from '@platform/testing';
import { intOption, option } from '../options';
import { buildApps, serviceMode } from '../service-build';
import { gatewayHeaders, startAgentServer, stop, type StartedServer } from '../agent-server/servers';
import { percentile, runLoad } from './load';
import { registerDeployment, startBareProxy, startControlPlane, startGateway } from './services';

const GRAPH_CONFIG = path.join(__dirname, '..', 'agent-server', 'graph', 'langgraph.json');
const SECRET = `bench-${randomUUID()}`;

/** Whether the gateway of the checkout at `root` signs deployments' requests with their own keys (newer) or the secret. */
function gatewayDerivesKeys(root: string): boolean {
  try {
    return readFileSync(path.join(root, 'apps/gateway/src/http/proxy.ts'), 'utf8').includes('deploymentKey');
  } catch {
    return true;
  }
}

/** CPU seconds so far of each Postgres backend serving `database`, by pid. */
async function backendsCpu(pg: PgClient, database: string): Promise<Map<number, number>> {
  const { rows } = await pg.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return new Map(rows.map(({ pid }) => [pid, processCpuSeconds(pid)]));
}

const databaseName = (db: ScratchDatabase) => new URL(db.url).pathname.slice(1);

interface Target {
  via: string;
  /** The gateway's process and database; none for direct. */
  gateway?: ChildProcess;
  database?: string;
  assistantId: string;
  url: (path: string) => string;
  headers: () => Record<string, string>;
}

interface Phase {
  path: string;
  via: string;
  reqPerSecond: number;
  p50: number;
  p95: number;
  /** CPU milliseconds per request. */
  cpu: Record<string, number>;
  machineBusy: number;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a Postgres server) is required: the services are measured on Postgres');
  const requests = intOption('requests', 5000);
  const concurrency = intOption('concurrency', 20);
  const rounds = intOption('rounds', 2);
  const logLevel = option('log-level', 'info');

  // --baseline=<dir>: a checkout of another commit (with node_modules), run as a second gateway in the same run.
  const baseline = option('baseline', '');
  // --bare-proxy: also through a bare node:http proxy (./bare-proxy.ts), the floor of any Node proxy here.
  const bareProxy = process.argv.includes('--bare-proxy');
  // --library-floor: also through express + http-proxy-middleware alone (./bare-proxy.ts `library`): the gateway's
  // libraries without its own code.
  const libraryFloor = process.argv.includes('--library-floor');
  // --gateways-only: no direct phases (an A/B of two gateways' CPU, with --baseline and more --rounds).
  const gatewaysOnly = process.argv.includes('--gateways-only');
  // --paths=ok: only `GET /ok` (or `assistant`: only `GET /assistants/{id}`).
  const kinds = option('paths', 'assistant,ok').split(',') as Array<'assistant' | 'ok'>;

  const databases = {
    controlPlane: await createScratchPostgresDatabase(adminUrl),
    agentServer: await createScratchPostgresDatabase(adminUrl),
    gateways: [await createScratchPostgresDatabase(adminUrl), ...(baseline ? [await createScratchPostgresDatabase(adminUrl)] : [])],
  };
  const started: StartedServer[] = [];
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    // The three bundles in one Nx run (in parallel), rather than one run as each service starts.
    if (serviceMode() === 'built') buildApps(path.resolve(__dirname, '../../..'), ['control-plane', 'agent-server', 'gateway']);
    const controlPlane = await startControlPlane(databases.controlPlane.url, SECRET, serviceMode());
    started.push(controlPlane);
    // The gateway signs a deployment's requests with that deployment's key: the agent server serves one deployment.
    const agentDeployment = randomUUID();
    const agentKey = deploymentKey(SECRET, agentDeployment);
    const agentServer = await startAgentServer({ databaseUrl: databases.agentServer.url, configPath: GRAPH_CONFIG, deploymentKey: agentKey, env: { LOG_LEVEL: logLevel }, mode: serviceMode() });
    started.push(agentServer);
    // A baseline gateway routes to a deployment of its own workspace: a second agent server on the same database, with
    // that deployment's key (or, for a gateway from before deployment keys, the secret it signs with).
    const baselineDeployment = randomUUID();
    const baselineServer = baseline
      ? await startAgentServer({
          databaseUrl: databases.agentServer.url,
          configPath: GRAPH_CONFIG,
          deploymentKey: gatewayDerivesKeys(path.resolve(baseline)) ? deploymentKey(SECRET, baselineDeployment) : SECRET,
          env: { LOG_LEVEL: logLevel },
          mode: serviceMode(),
        })
      : undefined;
    if (baselineServer) started.push(baselineServer);

    const targets: Target[] = [];
    for (const [i, database] of databases.gateways.entries()) {
      const gateway = await startGateway({ databaseUrl: database.url, internalSecret: SECRET, controlPlane, logLevel, root: i === 1 ? path.resolve(baseline) : undefined, mode: serviceMode() });
      started.push(gateway);
      const [upstream, id] = i === 1 && baselineServer ? [baselineServer, baselineDeployment] : [agentServer, agentDeployment];
      const deploymentId = await registerDeployment(databases.controlPlane.url, gateway.workspaceId, upstream.url, id);
      const headers = () => ({ 'x-api-key': gateway.adminKey, 'x-tenant-id': gateway.workspaceId });
      const base = `${gateway.url}/deployments/${deploymentId}`;
      const created = await fetch(`${base}/assistants`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ graph_id: 'echo', name: 'bench' }),
      });
      if (!created.ok) throw new Error(`creating the assistant through the gateway answered ${created.status}: ${await created.text()}`);
      const assistantId = ((await created.json()) as { assistant_id: string }).assistant_id;
      targets.push({
        via: i === 1 ? 'gateway (baseline)' : 'gateway',
        gateway: gateway.child,
        database: databaseName(database),
        assistantId,
        url: (p) => `${base}${p}`,
        headers,
      });
      if (i === 0) {
        // Direct: what the gateway would have sent for this workspace (signed, as by the gateway).
        const identity = { tenantId: gateway.workspaceId, organizationId: randomUUID(), subject: 'bench' };
        const signed = () => gatewayHeaders(agentKey, identity);
        if (!gatewaysOnly) targets.push({ via: 'direct', assistantId, url: (p) => `${agentServer.url}${p}`, headers: signed });
        if (bareProxy) {
          const bare = await startBareProxy(agentServer.url);
          started.push(bare);
          targets.push({ via: 'bare node proxy', gateway: bare.child, assistantId, url: (p) => `${bare.url}${p}`, headers: signed });
        }
        if (libraryFloor) {
          const floor = await startBareProxy(agentServer.url, 'library');
          started.push(floor);
          targets.push({ via: 'express + http-proxy-middleware', gateway: floor.child, assistantId, url: (p) => `${floor.url}${p}`, headers: signed });
        }
      }
    }

    const cpu = async (target: Target) => ({
      gateway: processTreeCpuSeconds(target.gateway?.pid),
      'gateway PG': target.database ? await backendsCpu(pg, target.database) : new Map<number, number>(),
      'agent server': processTreeCpuSeconds(agentServer.child.pid),
      'agent PG': await backendsCpu(pg, databaseName(databases.agentServer)),
      'control plane': processTreeCpuSeconds(controlPlane.child.pid),
      client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      machine: machineCpu(),
    });

    const phases: Phase[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const kind of kinds) {
        // Rotate which goes first, so none always gets the warmer (or the busier) moment.
        const order = targets.map((_, i) => targets[(i + round) % targets.length]);
        for (const target of order) {
          const url = target.url(kind === 'assistant' ? `/assistants/${target.assistantId}` : '/ok');
          await runLoad(url, target.headers, Math.min(1000, requests), concurrency); // warm-up
          const before = await cpu(target);
          const load = await runLoad(url, target.headers, requests, concurrency);
          const after = await cpu(target);
          const perRequest = (seconds: number) => (1000 * seconds) / requests;
          const spent = (key: Exclude<keyof typeof before, 'machine'>) => {
            const [a, b] = [before[key], after[key]];
            return perRequest(typeof a === 'number' ? (b as number) - a : cpuSecondsBetween(a, b as Map<number, number>));
          };
          phases.push({
            path: kind === 'assistant' ? 'GET /assistants/{id}' : 'GET /ok',
            via: target.via,
            reqPerSecond: requests / load.seconds,
            p50: percentile(load.latencies, 50),
            p95: percentile(load.latencies, 95),
            cpu: Object.fromEntries((['gateway', 'gateway PG', 'control plane', 'agent server', 'agent PG', 'client'] as const).map((k) => [k, spent(k)])),
            machineBusy: busyPercent(before.machine, after.machine),
          });
          console.log(`round ${round + 1} ${target.via.padEnd(18)} ${kind}: ${(requests / load.seconds).toFixed(0)} req/s`);
        }
      }
    }
    report(phases, requests, concurrency, logLevel);
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
    await pg.end();
    await Promise.all([databases.controlPlane, databases.agentServer, ...databases.gateways].map((d) => d.drop()));
  }
}

function report(phases: Phase[], requests: number, concurrency: number, logLevel: string): void {
  console.log(`\n${requests} requests per phase over ${concurrency} keep-alive clients; services at LOG_LEVEL=${logLevel}\n`);
  const cpuNames = Object.keys(phases[0].cpu);
  const header = ['path', 'via', 'req/s', 'p50 ms', 'p95 ms', ...cpuNames.map((n) => `${n} CPU`), 'busy'];
  console.log(`| ${header.join(' | ')} |\n|${header.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
  for (const r of phases) {
    const cells = [r.path, r.via, r.reqPerSecond.toFixed(0), r.p50.toFixed(1), r.p95.toFixed(1), ...cpuNames.map((n) => r.cpu[n].toFixed(3)), `${r.machineBusy.toFixed(0)}%`];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log('(CPU: milliseconds per request from /proc — each service process, the Postgres backends of its database, this client)\n');
  for (const path of ['GET /assistants/{id}', 'GET /ok']) {
    const of = (via: string) => phases.filter((p) => p.path === path && p.via === via);
    for (const via of [...new Set(phases.map((p) => p.via))].filter((v) => v !== 'direct')) {
      if (!of(via).length) continue;
      const ratios = of('direct').length ? `/direct throughput ${of(via).map((g, i) => (g.reqPerSecond / of('direct')[i].reqPerSecond).toFixed(2)).join(', ')}×; ` : '';
      const cpu = of(via).map((g) => g.cpu.gateway + g.cpu['gateway PG']);
      const median = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)];
      console.log(`${path}, ${via}: ${ratios}gateway CPU per proxied request (own PG included) ${cpu.map((c) => c.toFixed(3)).join(', ')} ms (median ${median.toFixed(3)})`);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
