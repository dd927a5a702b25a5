// Agent Server benchmark: this server (on Postgres) beside the reference JS dev server (`@langchain/langgraph-cli`
// 1.5.1 `dev`, pinned in ./reference, in-memory), in one run, driven by the same SDK client with the same 1-node
// graph (./graph/echo.graph.ts): sequential `runs.wait` latency (p50/p95) and runs/s with 50 concurrent clients.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/agent-server/run.ts [--sequential=200] [--concurrent-runs=2000] [--concurrency=50] [--replicas=1] [--client-processes=1] [--reference=on|off]
// `--replicas=N` runs N replicas of this server on the one database (as a deployment scaled out does), the clients
// spread over them round-robin. `--client-processes=N` spreads the concurrent clients over N processes (one client
// process saturates a core at a few hundred runs/s: on a machine with many cores the client must not be the limit);
// the client CPU column then adds up those processes. `--reference=off` measures this server alone.
// The reference is installed into ./reference/node_modules on first use (npm ci; registry only, no binaries).
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { busyPercent, machineCpu, cpuSecondsBetween, namedProcessesCpu, processTreeCpuSeconds } from '@platform/testing';
import { intOption, option } from '../options';
import { gatewayHeaders, startAgentServer, startReferenceServer, stop, type StartedServer } from './servers';
import { waitOnce } from './wait-once';

const GRAPH_CONFIG = path.join(__dirname, 'graph', 'langgraph.json');
const SECRET = `bench-${randomUUID()}`;

interface Target {
  name: string;
  client: () => Client;
  /** The servers' URLs and the secret that signs requests to them (none for the reference): for client processes. */
  urls: string[];
  secret?: string;
  /** The server's processes (one per replica). */
  children: ChildProcess[];
}

async function startReference(): Promise<Target> {
  const { url, child } = await startReferenceServer(GRAPH_CONFIG);
  return { name: 'reference (langgraph-cli 1.5.1 dev, in-memory)', children: [child], urls: [url], client: () => new Client({ apiUrl: url }) };
}

const startReplica = (databaseUrl: string) =>
  startAgentServer({ databaseUrl, configPath: GRAPH_CONFIG, internalSecret: SECRET });

async function startOurs(databaseUrl: string, replicas: number): Promise<Target> {
  // One after the other: the first applies the migrations.
  const started: StartedServer[] = [];
  try {
    for (let i = 0; i < replicas; i++) started.push(await startReplica(databaseUrl));
  } catch (err) {
    await Promise.all(started.map((s) => stop(s.child)));
    throw err;
  }
  let next = 0;
  // The server admits only gateway-signed requests; a signature is valid for 5 minutes, so each client signs anew.
  const client = () => new Client({ apiUrl: started[next++ % started.length].url, defaultHeaders: gatewayHeaders(SECRET) });
  const name = replicas === 1 ? 'this server (Postgres)' : `this server (Postgres, ${replicas} replicas)`;
  return { name, children: started.map((s) => s.child), urls: started.map((s) => s.url), secret: SECRET, client };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Result {
  p50: number;
  p95: number;
  runsPerSecond: number;
  /** CPU milliseconds per run in the concurrent phase: the server (with its child processes), this client, Postgres. */
  cpuMsPerRun: { server: number; client: number; postgres: number };
  /** How busy the machine's CPUs were in the concurrent phase, in percent. */
  machineBusy: number;
}

interface Load {
  /** Runs the load; resolves with the CPU seconds the client processes spent on it (0 when the clients run here). */
  run: () => Promise<number>;
}

function inProcessLoad(target: Target, concurrentRuns: number, concurrency: number): Load {
  const clients = Array.from({ length: concurrency }, () => target.client());
  let next = 0;
  return {
    run: async () => {
      await Promise.all(
        clients.map(async (c) => {
          while (next < concurrentRuns) await waitOnce(c, next++);
        }),
      );
      return 0;
    },
  };
}

/** `processes` client processes (./load-client.ts), each with its share of the runs and clients, warmed up. */
async function clientProcessesLoad(target: Target, concurrentRuns: number, concurrency: number, processes: number): Promise<Load> {
  const children = Array.from({ length: processes }, () => fork(path.join(__dirname, 'load-client.ts'), { stdio: 'inherit' }));
  const message = (child: ChildProcess) =>
    new Promise<unknown>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
    });
  const share = (total: number, i: number) => Math.floor(total / processes) + (i < total % processes ? 1 : 0);
  let offset = 0;
  const ready = children.map((child, i) => {
    const runs = share(concurrentRuns, i);
    child.send({ urls: target.urls, secret: target.secret, runs, concurrency: Math.max(1, share(concurrency, i)), offset });
    offset += runs + concurrency;
    return message(child);
  });
  await Promise.all(ready);
  return {
    run: async () => {
      const done = children.map((child) => message(child) as Promise<{ done: number }>);
      for (const child of children) child.send('go');
      return (await Promise.all(done)).reduce((sum, m) => sum + m.done, 0);
    },
  };
}

async function measure(target: Target, sequential: number, concurrentRuns: number, concurrency: number, clientProcesses: number): Promise<Result> {
  const client = target.client();
  for (let i = 0; i < 20; i++) await waitOnce(client, i); // warm-up: JIT, connections, graph compilation
  const latencies: number[] = [];
  for (let i = 0; i < sequential; i++) {
    const started = performance.now();
    await waitOnce(client, i);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  const load = clientProcesses > 1 ? await clientProcessesLoad(target, concurrentRuns, concurrency, clientProcesses) : inProcessLoad(target, concurrentRuns, concurrency);
  const cpu = () => {
    const client = process.cpuUsage();
    return {
      server: target.children.reduce((sum, child) => sum + processTreeCpuSeconds(child.pid), 0),
      client: (client.user + client.system) / 1e6,
      postgres: namedProcessesCpu('postgres'),
      machine: machineCpu(),
    };
  };
  const before = cpu();
  const started = performance.now();
  const clientProcessesCpu = await load.run();
  const seconds = (performance.now() - started) / 1000;
  const after = cpu();
  const perRun = (seconds: number) => (1000 * seconds) / concurrentRuns;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    runsPerSecond: concurrentRuns / seconds,
    cpuMsPerRun: {
      server: perRun(after.server - before.server),
      client: perRun(after.client - before.client + clientProcessesCpu),
      postgres: perRun(cpuSecondsBetween(before.postgres, after.postgres)),
    },
    machineBusy: busyPercent(before.machine, after.machine),
  };
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a Postgres server) is required: this server is measured on Postgres');
  const sequential = intOption('sequential', 200);
  const concurrentRuns = intOption('concurrent-runs', 2000);
  const concurrency = intOption('concurrency', 50);
  const replicas = intOption('replicas', 1);
  const clientProcesses = intOption('client-processes', 1);
  const withReference = option('reference', 'on') !== 'off';
  const scratch = await createScratchPostgresDatabase(adminUrl);
  const targets: Target[] = [];
  try {
    targets.push(await startOurs(scratch.url, replicas));
    if (withReference) targets.push(await startReference());
    const rows: [string, Result][] = [];
    for (const target of targets) {
      console.log(`measuring ${target.name} ...`);
      rows.push([target.name, await measure(target, sequential, concurrentRuns, concurrency, clientProcesses)]);
    }
    const [ours, reference] = rows.map(([, r]) => r);
    console.log(`\nsequential runs.wait: ${sequential} runs; concurrent: ${concurrentRuns} runs over ${concurrency} clients\n`);
    const header = ['p50 ms', 'p95 ms', `runs/s @${concurrency}`, 'server CPU', 'client CPU', 'Postgres CPU', 'machine busy'];
    console.log(`${'server'.padEnd(48)}${header.map((h) => h.padStart(14)).join('')}`);
    for (const [name, r] of rows) {
      const cells = [r.p50.toFixed(1), r.p95.toFixed(1), r.runsPerSecond.toFixed(0), ...Object.values(r.cpuMsPerRun).map((ms) => `${ms.toFixed(2)} ms`), `${r.machineBusy.toFixed(0)}%`];
      console.log(`${name.padEnd(48)}${cells.map((c) => c.padStart(14)).join('')}`);
    }
    const clientIs = clientProcesses > 1 ? `${clientProcesses} client processes` : 'this process';
    console.log(`(CPU columns: milliseconds per run in the concurrent phase, from /proc; the bench client is ${clientIs})`);
    if (reference) {
      console.log(
        `\nratios: p50 ${(reference.p50 / ours.p50).toFixed(1)}x lower, concurrent throughput ${(ours.runsPerSecond / reference.runsPerSecond).toFixed(1)}x`,
      );
    }
  } finally {
    await Promise.all(targets.flatMap((t) => t.children.map(stop)));
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
