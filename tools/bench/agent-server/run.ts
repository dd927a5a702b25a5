// Agent Server benchmark: this server (on Postgres) beside the reference JS dev server (`@langchain/langgraph-cli`
// 1.5.1 `dev`, pinned in ./reference, in-memory), in one run, driven by the same SDK client with the same 1-node
// graph (./graph/echo.graph.ts): sequential `runs.wait` latency (p50/p95) and runs/s with 50 concurrent clients.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/agent-server/run.ts [--sequential=200] [--concurrent-runs=2000] [--concurrency=50] [--replicas=1]
// `--replicas=N` runs N replicas of this server on the one database (as a deployment scaled out does), the clients
// spread over them round-robin.
// The reference is installed into ./reference/node_modules on first use (npm ci; registry only, no binaries).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { busyPercent, machineCpu, cpuSecondsBetween, namedProcessesCpu, processTreeCpuSeconds } from '@platform/testing';
import { intOption } from '../options';
import { gatewayHeaders, startAgentServer, startReferenceServer, stop, type StartedServer } from './servers';

const GRAPH_CONFIG = path.join(__dirname, 'graph', 'langgraph.json');
const SECRET = `bench-${randomUUID()}`;
const GRAPH_ID = 'echo';

interface Target {
  name: string;
  client: () => Client;
  /** The server's processes (one per replica). */
  children: ChildProcess[];
}

async function startReference(): Promise<Target> {
  const { url, child } = await startReferenceServer(GRAPH_CONFIG);
  return { name: 'reference (langgraph-cli 1.5.1 dev, in-memory)', children: [child], client: () => new Client({ apiUrl: url }) };
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
  return { name, children: started.map((s) => s.child), client };
}

const input = (i: number) => ({ messages: [{ role: 'user', content: `hello ${i}` }] });

async function waitOnce(client: Client, i: number): Promise<void> {
  const result = (await client.runs.wait(null, GRAPH_ID, { input: input(i) })) as { messages?: { content: string }[] };
  if (result.messages?.at(-1)?.content !== `echo: hello ${i}`) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
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

async function measure(target: Target, sequential: number, concurrentRuns: number, concurrency: number): Promise<Result> {
  const client = target.client();
  for (let i = 0; i < 20; i++) await waitOnce(client, i); // warm-up: JIT, connections, graph compilation
  const latencies: number[] = [];
  for (let i = 0; i < sequential; i++) {
    const started = performance.now();
    await waitOnce(client, i);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  let next = 0;
  const clients = Array.from({ length: concurrency }, () => target.client());
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
  await Promise.all(
    clients.map(async (c) => {
      while (next < concurrentRuns) await waitOnce(c, next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = cpu();
  const perRun = (seconds: number) => (1000 * seconds) / concurrentRuns;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    runsPerSecond: concurrentRuns / seconds,
    cpuMsPerRun: {
      server: perRun(after.server - before.server),
      client: perRun(after.client - before.client),
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
  const scratch = await createScratchPostgresDatabase(adminUrl);
  const targets: Target[] = [];
  try {
    targets.push(await startOurs(scratch.url, replicas), await startReference());
    const rows: [string, Result][] = [];
    for (const target of targets) {
      console.log(`measuring ${target.name} ...`);
      rows.push([target.name, await measure(target, sequential, concurrentRuns, concurrency)]);
    }
    const [ours, reference] = rows.map(([, r]) => r);
    console.log(`\nsequential runs.wait: ${sequential} runs; concurrent: ${concurrentRuns} runs over ${concurrency} clients\n`);
    const header = ['p50 ms', 'p95 ms', `runs/s @${concurrency}`, 'server CPU', 'client CPU', 'Postgres CPU', 'machine busy'];
    console.log(`${'server'.padEnd(48)}${header.map((h) => h.padStart(14)).join('')}`);
    for (const [name, r] of rows) {
      const cells = [r.p50.toFixed(1), r.p95.toFixed(1), r.runsPerSecond.toFixed(0), ...Object.values(r.cpuMsPerRun).map((ms) => `${ms.toFixed(2)} ms`), `${r.machineBusy.toFixed(0)}%`];
      console.log(`${name.padEnd(48)}${cells.map((c) => c.padStart(14)).join('')}`);
    }
    console.log('(CPU columns: milliseconds per run in the concurrent phase, from /proc; the bench client is this process)');
    console.log(
      `\nratios: p50 ${(reference.p50 / ours.p50).toFixed(1)}x lower, concurrent throughput ${(ours.runsPerSecond / reference.runsPerSecond).toFixed(1)}x`,
    );
  } finally {
    await Promise.all(targets.flatMap((t) => t.children.map(stop)));
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
