// Agent Server benchmark: this server (on Postgres) beside the reference JS dev server (`@langchain/langgraph-cli`
// 1.5.1 `dev`, pinned in ./reference, in-memory), in one run, driven by the same SDK client with the same 1-node
// graph (./graph/echo.graph.ts): sequential `runs.wait` latency (p50/p95) and runs/s with 50 concurrent clients.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/agent-server/run.ts [--sequential=200] [--concurrent-runs=2000] [--concurrency=50] [--replicas=1]
//     [--client-processes=1] [--no-reference] [--baseline=<checkout>] [--rounds=1] [--floor-runs=1000] [--node-flags=<flags>] [--durable-floor]
//     [--warmup=1500] [--source] [--baseline-from-source]
// `--replicas=N` runs N replicas of this server on the one database (as a deployment scaled out does), the clients
// spread over them round-robin. `--client-processes=N` spreads the concurrent clients over N processes (one client
// process saturates a core at a few hundred runs/s: on a machine with many cores the client must not be the limit);
// the client CPU column then adds up those processes. `--baseline=<dir>`: this server from another checkout too (e.g. a `git archive` of
// main with node_modules linked), on a database of its own, measured interleaved with this one `--rounds` times: an
// A/B in one time window. `--no-reference`: without the reference server. The floor (./graph-floor.ts, LangGraph.js
// alone) is measured in a process of its own at the start of every round, and every row reports its server CPU above
// that round's floor. `--durable-floor`: also the floor of a durable server (./durable-floor.ts: bare node:http, a run
// row inserted before the graph and ended after it, nothing else), measured in every round beside this server.
// The reference is installed into ./reference/node_modules on first use (npm ci; registry only, no binaries).
// This server runs as deployed, from its production bundle (built first by Nx, in the baseline's checkout too;
// ../service-build.ts says why), or from source through tsx with `--source` (`--baseline-from-source`: the baseline
// alone, e.g. `--baseline=. --baseline-from-source` to compare the bundle with the source of one checkout). Before the first round every server
// serves `--warmup` runs, unmeasured, from 50 concurrent clients: what is measured is a server past its JIT warm-up,
// as one that has been up for a while is, not a fresh process still compiling its hot paths.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { Client as PgClient } from 'pg';
import { busyPercent, machineCpu, cpuSecondsBetween, processCpuSeconds, processTreeCpuSeconds } from '@platform/testing';
import { intOption, option } from '../options';
import { serviceMode } from '../service-build';
import { freePort } from '@platform/http-server';
import { gatewayHeaders, startAgentServer, startReferenceServer, stop, waitForOk, type StartedServer } from './servers';
import { waitAll, waitOnce } from './wait-once';

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
  /** Its Postgres database: the CPU of that database's backends is the server's Postgres CPU (none: in-memory). */
  database?: string;
}

async function startReference(): Promise<Target> {
  const { url, child } = await startReferenceServer(GRAPH_CONFIG);
  return { name: 'reference (langgraph-cli 1.5.1 dev, in-memory)', children: [child], urls: [url], client: () => new Client({ apiUrl: url }) };
}

// --node-flags=<flags, space-separated>: V8/Node flags for this server's processes (not the baseline's).
const NODE_FLAGS = option('node-flags', '').split(' ').filter(Boolean);
const BASELINE_MODE = process.argv.includes('--baseline-from-source') ? 'source' : serviceMode();

const startReplica = (databaseUrl: string, root?: string) =>
  startAgentServer({ databaseUrl, configPath: GRAPH_CONFIG, deploymentKey: SECRET, root, nodeFlags: root ? [] : NODE_FLAGS, mode: root ? BASELINE_MODE : serviceMode() });

async function startOurs(databaseUrl: string, replicas: number, baseline?: string): Promise<Target> {
  const database = new URL(databaseUrl).pathname.slice(1);
  // One after the other: the first applies the migrations.
  const started: StartedServer[] = [];
  try {
    for (let i = 0; i < replicas; i++) started.push(await startReplica(databaseUrl, baseline));
  } catch (err) {
    await Promise.all(started.map((s) => stop(s.child)));
    throw err;
  }
  let next = 0;
  // The server admits only gateway-signed requests; a signature is valid for 5 minutes, so each client signs anew.
  const client = () => new Client({ apiUrl: started[next++ % started.length].url, defaultHeaders: gatewayHeaders(SECRET) });
  const from = (baseline ? BASELINE_MODE : serviceMode()) === 'source' ? ', source' : '';
  const name = `${baseline ? 'baseline' : 'this server'} (Postgres${from}${replicas === 1 ? '' : `, ${replicas} replicas`})`;
  return { name, children: started.map((s) => s.child), urls: started.map((s) => s.url), secret: SECRET, client, database };
}

/** ./durable-floor.ts on its own database: the least a server that persists each run does per `runs.wait`. */
async function startDurableFloor(databaseUrl: string): Promise<Target> {
  const port = await freePort();
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, path.join(__dirname, 'durable-floor.ts'), `--port=${port}`], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DURABLE_FLOOR_SECRET: SECRET },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, child, 'durable floor');
  const database = new URL(databaseUrl).pathname.slice(1);
  return { name: 'durable floor (node:http, 2 statements)', children: [child], urls: [url], secret: SECRET, client: () => new Client({ apiUrl: url, defaultHeaders: gatewayHeaders(SECRET) }), database };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Result {
  p50: number;
  p95: number;
  runsPerSecond: number;
  /** CPU milliseconds per run in the concurrent phase: the server (with its child processes), this client, Postgres. */
  cpuMsPerRun: { server: number; client: number; postgres?: number };
  /** How busy the machine's CPUs were in the concurrent phase, in percent. */
  machineBusy: number;
}

/**
 * CPU seconds so far of each Postgres backend serving `database`, by pid: other databases' backends on the same
 * server (other benches, tests) are not counted.
 */
async function backendsCpu(admin: PgClient, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  return new Map(rows.map(({ pid }) => [pid, processCpuSeconds(pid)]));
}

interface Load {
  /** Runs the load; resolves with the CPU seconds the client processes spent on it (0 when the clients run here). */
  run: () => Promise<number>;
}

function inProcessLoad(target: Target, concurrentRuns: number, concurrency: number): Load {
  const clients = Array.from({ length: concurrency }, () => target.client());
  return {
    run: async () => {
      await waitAll(clients, concurrentRuns);
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

async function measure(admin: PgClient, target: Target, sequential: number, concurrentRuns: number, concurrency: number, clientProcesses: number): Promise<Result> {
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
  const cpu = async () => {
    const client = process.cpuUsage();
    return {
      server: target.children.reduce((sum, child) => sum + processTreeCpuSeconds(child.pid), 0),
      client: (client.user + client.system) / 1e6,
      postgres: target.database ? await backendsCpu(admin, target.database) : undefined,
      machine: machineCpu(),
    };
  };
  const before = await cpu();
  const started = performance.now();
  const clientProcessesCpu = await load.run();
  const seconds = (performance.now() - started) / 1000;
  const after = await cpu();
  const perRun = (seconds: number) => (1000 * seconds) / concurrentRuns;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    runsPerSecond: concurrentRuns / seconds,
    cpuMsPerRun: {
      server: perRun(after.server - before.server),
      client: perRun(after.client - before.client + clientProcessesCpu),
      postgres: before.postgres && after.postgres ? perRun(cpuSecondsBetween(before.postgres, after.postgres)) : undefined,
    },
    machineBusy: busyPercent(before.machine, after.machine),
  };
}

/** LangGraph.js's own CPU per `invoke` of the graph (./graph-floor.ts), in a process of its own. */
interface Floor {
  plain: number;
  memorySaver: number;
  serverStream: number;
}

function measureFloor(runs: number): Floor {
  const out = execFileSync(path.join(__dirname, '..', '..', '..', 'node_modules', '.bin', 'tsx'), [path.join(__dirname, 'graph-floor.ts'), `--runs=${runs}`, '--json'], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '');
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a Postgres server) is required: this server is measured on Postgres');
  const sequential = intOption('sequential', 200);
  const concurrentRuns = intOption('concurrent-runs', 2000);
  const concurrency = intOption('concurrency', 50);
  const replicas = intOption('replicas', 1);
  const clientProcesses = intOption('client-processes', 1);
  const rounds = intOption('rounds', 1);
  const floorRuns = intOption('floor-runs', 1000);
  const baseline = option('baseline', '');
  const withReference = !process.argv.includes('--no-reference');
  const durableFloor = process.argv.includes('--durable-floor');
  const warmup = Number(option('warmup', '1500'));
  if (!Number.isInteger(warmup) || warmup < 0) throw new Error('--warmup must be a whole number of runs');
  const scratches = [await createScratchPostgresDatabase(adminUrl), ...(baseline ? [await createScratchPostgresDatabase(adminUrl)] : [])];
  if (durableFloor) scratches.push(await createScratchPostgresDatabase(adminUrl));
  const admin = new PgClient({ connectionString: adminUrl });
  await admin.connect();
  const targets: Target[] = [];
  try {
    targets.push(await startOurs(scratches[0].url, replicas));
    if (baseline) targets.push(await startOurs(scratches[1].url, replicas, path.resolve(baseline)));
    if (durableFloor) targets.push(await startDurableFloor(scratches[scratches.length - 1].url));
    const ours = [...targets];
    const reference = withReference ? await startReference() : undefined;
    if (reference) targets.push(reference);
    if (warmup > 0) {
      console.log(`warming up: ${warmup} runs on each server ...`);
      for (const target of targets) await inProcessLoad(target, warmup, concurrency).run();
    }
    const rows: { name: string; result: Result; floor: Floor }[] = [];
    // Each round: the floor (the host's speed moves on a shared machine), then ours and the baseline, one after the
    // other (in alternating order); the reference (latency-bound) once, at the end.
    let floor: Floor | undefined;
    for (let round = 0; round < rounds; round++) {
      console.log(`round ${round + 1}: measuring the floor (graph-floor.ts) ...`);
      floor = measureFloor(floorRuns);
      // The order alternates from round to round: whoever goes first after the floor is not always the same.
      for (const target of round % 2 === 0 ? ours : [...ours].reverse()) {
        console.log(`measuring ${target.name} ...`);
        rows.push({ name: target.name, result: await measure(admin, target, sequential, concurrentRuns, concurrency, clientProcesses), floor });
      }
    }
    if (reference && floor) {
      console.log(`measuring ${reference.name} ...`);
      rows.push({ name: reference.name, result: await measure(admin, reference, sequential, concurrentRuns, concurrency, clientProcesses), floor });
    }
    console.log(
      `\nthis server from its ${serviceMode() === 'built' ? 'production bundle (dist)' : 'source (tsx)'}, after ${warmup} warm-up runs; ` +
        `sequential runs.wait: ${sequential} runs; concurrent: ${concurrentRuns} runs over ${concurrency} clients\n`,
    );
    const header = ['p50 ms', 'p95 ms', `runs/s @${concurrency}`, 'server CPU', 'floor', 'above floor', 'client CPU', 'Postgres CPU', 'machine busy'];
    console.log(`${'server'.padEnd(48)}${header.map((h) => h.padStart(13)).join('')}`);
    const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(2)} ms`);
    for (const { name, result: r, floor: f } of rows) {
      const { server, client, postgres } = r.cpuMsPerRun;
      const cells = [r.p50.toFixed(1), r.p95.toFixed(1), r.runsPerSecond.toFixed(0), ...[server, f.plain, server - f.plain, client, postgres].map(ms), `${r.machineBusy.toFixed(0)}%`];
      console.log(`${name.padEnd(48)}${cells.map((c) => c.padStart(13)).join('')}`);
    }
    console.log(
      `(CPU columns: milliseconds per run in the concurrent phase, from /proc; the bench client is ${clientProcesses > 1 ? `${clientProcesses} client processes` : 'this process'}; Postgres: the backends of the\n` +
        " server's own database. Floor: graph-floor.ts's CPU per invoke of the graph measured just before, in the same round)",
    );
    if (rounds > 1) {
      console.log('\nper server, over the rounds (sum of server CPU / sum of floors; median of each round\'s distance to its floor):');
      for (const name of new Set(rows.map((row) => row.name))) {
        const mine = rows.filter((row) => row.name === name);
        const sum = (f: (row: (typeof rows)[number]) => number) => mine.reduce((total, row) => total + f(row), 0);
        const server = sum((row) => row.result.cpuMsPerRun.server) / mine.length;
        const floorOf = sum((row) => row.floor.plain) / mine.length;
        // One round on a shared machine can move by a millisecond (another process's burst, a major GC): the median
        // of the rounds' distances to their floors is the figure such a round does not carry.
        const above = mine.map((row) => row.result.cpuMsPerRun.server - row.floor.plain).sort((a, b) => a - b);
        const median = above.length % 2 ? above[(above.length - 1) / 2] : (above[above.length / 2 - 1] + above[above.length / 2]) / 2;
        console.log(
          `${name.padEnd(48)} server ${server.toFixed(2)} ms, floor ${floorOf.toFixed(2)} ms, above floor ${(server - floorOf).toFixed(2)} ms; ` +
            `median above floor ${median.toFixed(2)} ms (${mine.length} rounds)`,
        );
      }
    }
    if (reference) {
      const [first, last] = [rows[0].result, rows[rows.length - 1].result];
      console.log(`\nratios: p50 ${(last.p50 / first.p50).toFixed(1)}x lower, concurrent throughput ${(first.runsPerSecond / last.runsPerSecond).toFixed(1)}x`);
    }
  } finally {
    await Promise.all(targets.flatMap((t) => t.children.map(stop)));
    await admin.end();
    await Promise.all(scratches.map((s) => s.drop()));
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
