// Ingest throughput through the whole platform (gateway → tracing → Postgres), with the langsmith SDK's multipart
// path (as `/info` announces it: multipart, gzip-compressed). Two measurements on scratch Postgres databases:
//   1. server: the SDK clients' requests are recorded first, then sent to the gateway by plain HTTP senders, so the
//      figure is what the platform ingests with (almost) all CPU to itself;
//   2. end to end: live SDK client processes send to the gateway while it ingests, all on the same machine.
// Each waits until every run is stored with its update, and prints runs/s.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/ingest/run.ts [--runs=20000] [--clients=2] [--senders=4] [--phase=both|server|e2e]
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { silentLogger } from '@platform/logging';
import { busyPercent, cpuSecondsBetween, machineCpu, namedProcessesCpu } from '@platform/testing';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { DATABASE_SERVICES, startPlatform, type DatabaseService, type RunningPlatform } from '../../dev/platform';
import { intOption } from '../options';
import type { IngestJob, IngestReport } from './ingest-client';
import { startRecorder, type RecordedRequest } from './recorder';

const MAX_RUNS = 300_000;
const TIMEOUT_MS = 10 * 60_000;
const RUNS_PER_TRACE = 3;

const phase = process.argv.find((a) => a.startsWith('--phase='))?.slice(8) ?? 'both';

/** SDK client processes (ingest-client.ts), started and loaded; `send` hands each its share of the traces. */
async function startClients(count: number) {
  const children = await Promise.all(
    Array.from({ length: count }, () => {
      // fork reuses this process's execArgv, i.e. tsx's loader.
      const child = fork(path.join(__dirname, 'ingest-client.ts'), { stdio: 'inherit' });
      return new Promise<ChildProcess>((resolve, reject) => {
        child.once('message', () => resolve(child));
        child.once('exit', (code) => reject(new Error(`ingest client exited with ${code}`)));
      });
    }),
  );
  const send = (traces: number, job: Omit<IngestJob, 'traces'>) => {
    const perClient = Math.ceil(traces / count);
    return Promise.all(
      children.map(
        (child, i) =>
          new Promise<IngestReport>((resolve, reject) => {
            child.once('message', (reply: { result?: IngestReport; error?: string }) => {
              child.disconnect();
              if (reply.result) resolve(reply.result);
              else reject(new Error(reply.error));
            });
            child.send({ ...job, traces: Math.min(perClient, traces - i * perClient) });
          }),
      ),
    );
  };
  return { send };
}

/** Sends recorded requests to the gateway, `senders` at a time; throws on any answer but 202. */
async function replay(requests: RecordedRequest[], apiUrl: string, headers: Record<string, string>, senders: number): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const res = await fetch(`${apiUrl}${request.path}`, { method: 'POST', headers: { ...headers, ...request.headers }, body: request.body });
      if (res.status !== 202) throw new Error(`${request.path} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: senders }, sender));
}

/** Runs of a project whose create and update are both stored (the update's end time set the status). */
async function countFinished(db: pg.Client, project: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM runs r JOIN tracing_sessions s ON s.id = r.session_id
     WHERE s.name = $1 AND r.has_create AND r.status <> 'pending'`,
    [project],
  );
  return Number(rows[0].n);
}

async function waitStored(db: pg.Client, project: string, expected: number, started: number): Promise<number> {
  for (;;) {
    const stored = await countFinished(db, project);
    if (stored >= expected) return (performance.now() - started) / 1000;
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`timed out: ${stored} of ${expected} runs stored`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Requests the tracing service answered per ingest route and status, from its Prometheus metrics. */
async function ingestRequests(tracingUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${tracingUrl}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/http_request_duration_seconds_count\{[^}]*route="([^"]+)"[^}]*status="(\d+)"[^}]*\} (\d+)/g)) {
    if (m[1].startsWith('/api/v1/runs') || m[1] === '/api/v1/info') counts[`${m[1]} ${m[2]}`] = Number(m[3]);
  }
  return counts;
}

const rate = (runs: number, seconds: number) => `${runs.toLocaleString('en-US')} runs in ${seconds.toFixed(2)} s = ${Math.round(runs / seconds).toLocaleString('en-US')} runs/s`;

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('Set DATABASE_URL (a Postgres role allowed to CREATE DATABASE)');
  const traces = Math.ceil(Math.min(intOption('runs', 20_000), MAX_RUNS) / RUNS_PER_TRACE);
  const runs = traces * RUNS_PER_TRACE;
  const clients = intOption('clients', 2);
  const senders = intOption('senders', 4);
  const concurrency = intOption('concurrency', 50);

  const scratch = new Map<DatabaseService, ScratchDatabase>();
  let platform: RunningPlatform | undefined;
  let db: pg.Client | undefined;
  const cleanup = async () => {
    await db?.end();
    await platform?.stop();
    await Promise.all([...scratch.values()].map((d) => d.drop()));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    for (const service of DATABASE_SERVICES) scratch.set(service, await createScratchPostgresDatabase(adminUrl));
    platform = await startPlatform({
      dataDir: 'memory://',
      databaseUrls: Object.fromEntries([...scratch].map(([s, d]) => [s, d.url])),
      internalSecret: 'bench-internal-secret-0123456789',
      migrate: true,
      logger: () => silentLogger,
    });
    db = new pg.Client({ connectionString: scratch.get('tracing')!.url });
    await db.connect();
    const { apiKey, workspace } = platform.gateway.bootstrap!;
    const apiUrl = `${platform.gatewayUrl}/api/v1`;
    const auth = { 'x-api-key': apiKey, 'x-tenant-id': workspace.id };
    const info = (await (await fetch(`${apiUrl}/info`, { headers: auth })).json()) as {
      batch_ingest_config: Record<string, unknown>;
      instance_flags: { gzip_body_enabled: boolean };
    };
    console.log(`${runs.toLocaleString('en-US')} runs per phase: ${traces} traces of a chain + 2 LLM runs, ~1 KB inputs and outputs each`);
    console.log(`/info: ${JSON.stringify({ ...info.batch_ingest_config, gzip: info.instance_flags.gzip_body_enabled })}`);

    if (phase === 'both' || phase === 'server') {
      const recorder = await startRecorder(info);
      await (await startClients(clients)).send(traces, { apiUrl: recorder.url, apiKey, workspaceId: workspace.id, project: 'bench-server', concurrency });
      await recorder.close();
      const bytes = recorder.requests.reduce((sum, r) => sum + r.body.length, 0);
      console.log(`\n[server] recorded ${recorder.requests.length} SDK requests (${(bytes / 1e6).toFixed(1)} MB as sent); replaying with ${senders} senders`);
      const before = { platform: process.cpuUsage(), postgres: namedProcessesCpu('postgres'), machine: machineCpu() };
      const started = performance.now();
      await replay(recorder.requests, apiUrl, auth, senders);
      console.log(`[server] ingest: ${rate(runs, await waitStored(db, 'bench-server', runs, started))}`);
      // This process is the platform (gateway, tracing, the idle rest) and the senders, which only write recorded bodies.
      const used = process.cpuUsage(before.platform);
      const perRun = (seconds: number) => `${((seconds * 1000) / runs).toFixed(3)} ms`;
      console.log(
        `[server] CPU per run: platform process ${perRun((used.user + used.system) / 1e6)}, ` +
          `Postgres ${perRun(cpuSecondsBetween(before.postgres, namedProcessesCpu('postgres')))}; machine ${busyPercent(before.machine, machineCpu()).toFixed(0)}% busy`,
      );
    }
    if (phase === 'both' || phase === 'e2e') {
      console.log(`\n[e2e] ${clients} live SDK client processes, ${concurrency} traces in flight each`);
      const live = await startClients(clients);
      const started = performance.now();
      await live.send(traces, { apiUrl, apiKey, workspaceId: workspace.id, project: 'bench-e2e', concurrency });
      console.log(`[e2e] ingest: ${rate(runs, await waitStored(db, 'bench-e2e', runs, started))}`);
    }
    const requests = await ingestRequests(platform.services.tracing.url);
    console.log(`\nrequests to tracing: ${JSON.stringify(requests)}`);
    if (!Object.keys(requests).some((k) => k.startsWith('/api/v1/runs/multipart 202'))) throw new Error('the SDK did not use the multipart endpoint');
    if (Object.keys(requests).some((k) => !k.endsWith(' 200') && !k.endsWith(' 202'))) throw new Error('some ingest requests failed');
    // StreamRuns rows/s: tools/bench/stream-runs/run.ts.
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
