// Fair sharing between workspaces through the whole platform (gateway → tracing → Postgres; export → job bus →
// export worker → s3rver): workspace B's latency alone, then while workspace A floods, with A held to limits set
// through the admin API. Prints B's p50/p95 both ways and what A was answered (202 vs 429).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres [NATS_URL=nats://127.0.0.1:4222] npx tsx tools/bench/fairness/run.ts
//   options: --phase=both|ingest|export --b-batches=60 --a-senders=8 --a-batch=100 --a-runs-per-second=500
//            --a-requests-per-second=20 --a-exports=15 --days=3 --b-exports=5 --worker-concurrency=2 --max-queued=1
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { exportPartitionQueue } from '@platform/contracts';
import { createJobBus, defineQueue, type JetStreamJobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { startTestS3Server, TEST_S3_CREDENTIALS, type TestS3Server } from '@platform/export-s3/testing';
import { DATABASE_SERVICES, startPlatform, type DatabaseService, type RunningPlatform } from '../../dev/platform';
import { intOption, option } from '../options';
import type { FloodJob } from './flood-client';

const phase = option('phase', 'both');
const BUCKET = 'lake';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const summary = (ms: number[]) => `p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms (n=${ms.length})`;

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

function apiFor(gatewayUrl: string, apiKey: string, workspace?: string): Api {
  return async (method, path, body) => {
    const headers: Record<string, string> = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    if (workspace) headers['x-tenant-id'] = workspace;
    const res = await fetch(`${gatewayUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

const runsOf = (project: string, count: number, startMs = Date.now()) =>
  Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const start = new Date(startMs + i).toISOString();
    return { id, trace_id: id, dotted_order: `${start.replace(/[-:.]/g, '').replace('Z', '000Z')}${id}`, name: 'bench', run_type: 'chain', inputs: { i }, session_name: project, start_time: start };
  });

/** B's 5-run batches one after another; the latency of each. */
async function bBatches(api: Api, batches: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < batches; i++) {
    const started = performance.now();
    const res = await api('POST', '/api/v1/runs/batch', { post: runsOf('fair-b', 5) });
    if (res.status !== 202) throw new Error(`B's batch answered ${res.status}: ${JSON.stringify(res.body)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** A's flood in a child process (flood-client.ts); `stop` ends it and gives the answers it got. */
async function aFlood(job: FloodJob) {
  // fork reuses this process's execArgv, i.e. tsx's loader.
  const child = fork(path.join(__dirname, 'flood-client.ts'), { stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`flood client exited with ${code}`)));
  });
  child.send({ job });
  return {
    stop: () =>
      new Promise<Record<number, number>>((resolve) => {
        child.once('message', (reply: { statuses: Record<number, number> }) => resolve(reply.statuses));
        child.send({ stop: true });
      }),
  };
}

async function ingestPhase(apiB: Api, admin: Api, flood: Omit<FloodJob, 'senders' | 'batch'>): Promise<void> {
  const a = flood.workspace;
  const batches = intOption('b-batches', 60);
  const senders = intOption('a-senders', 8);
  const batch = intOption('a-batch', 100);
  await bBatches(apiB, 5); // warm-up
  const alone = await bBatches(apiB, batches);
  console.log(`[ingest] B alone: ${summary(alone)}`);
  const scenarios: [string, Record<string, number | null>][] = [
    ['A unlimited (fair write queue only)', { ingest_runs_per_second: 0, requests_per_second: 0 }],
    [
      'A limited',
      { ingest_runs_per_second: intOption('a-runs-per-second', 500), ingest_runs_burst: intOption('a-runs-per-second', 500), requests_per_second: intOption('a-requests-per-second', 20), requests_burst: intOption('a-requests-per-second', 20) },
    ],
  ];
  for (const [name, limits] of scenarios) {
    const set = await admin('PATCH', `/api/v1/workspaces/${a}/limits`, limits);
    if (set.status !== 200) throw new Error(`setting A's limits answered ${set.status}: ${JSON.stringify(set.body)}`);
    const attacker = await aFlood({ ...flood, senders, batch });
    await sleep(2000);
    const under = await bBatches(apiB, batches);
    const statuses = await attacker.stop();
    const ratio = percentile(under, 95) / percentile(alone, 95);
    console.log(`[ingest] B under A's flood, ${name}: ${summary(under)}; p95 ${ratio.toFixed(2)}x alone; A answered ${JSON.stringify(statuses)}`);
  }
  await admin('PATCH', `/api/v1/workspaces/${a}/limits`, { ingest_runs_per_second: null, ingest_runs_burst: null, requests_per_second: null, requests_burst: null });
}

async function projectWithRuns(api: Api, name: string, days: number): Promise<string> {
  const day0 = Date.parse('2024-05-01T00:00:00Z');
  for (let d = 0; d < days; d++) {
    const res = await api('POST', '/api/v1/runs/batch', { post: runsOf(name, 20, day0 + d * 86_400_000 + 3_600_000) });
    if (res.status !== 202) throw new Error(`seeding answered ${res.status}`);
  }
  for (;;) {
    const found = await api('GET', `/api/v1/sessions?name=${name}`);
    if (found.body?.[0]?.id) return found.body[0].id as string;
    await sleep(100);
  }
}

async function exportOnce(api: Api, destination: string, project: string, days: number) {
  const created = await api('POST', '/api/v1/bulk-exports', {
    bulk_export_destination_id: destination,
    session_id: project,
    start_time: '2024-05-01T00:00:00Z',
    end_time: new Date(Date.parse('2024-05-01T00:00:00Z') + days * 86_400_000).toISOString(),
  });
  if (created.status !== 200) throw new Error(`export answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/** Time until B's export completes, and the statuses its runs read meanwhile. */
async function timeExport(api: Api, destination: string, project: string): Promise<{ ms: number; seen: Set<string> }> {
  const started = performance.now();
  const id = await exportOnce(api, destination, project, 1);
  const seen = new Set<string>();
  for (;;) {
    const e = await api('GET', `/api/v1/bulk-exports/${id}`);
    if (e.body.status === 'Completed') return { ms: performance.now() - started, seen };
    if (['Failed', 'Cancelled', 'TimedOut'].includes(e.body.status)) throw new Error(`B's export ${e.body.status}: ${e.body.error}`);
    for (const r of (await api('GET', `/api/v1/bulk-exports/${id}/runs`)).body ?? []) seen.add(r.status);
    await sleep(25);
  }
}

async function exportPhase(apiA: Api, apiB: Api, s3: TestS3Server): Promise<void> {
  const days = intOption('days', 3);
  const aExports = intOption('a-exports', 15);
  const bExports = intOption('b-exports', 5);
  const config = { bucket_name: BUCKET, prefix: 'bench', endpoint_url: s3.endpoint, region: 'us-east-1', config_kwargs_s3: { addressing_style: 'path' } };
  const destination = async (api: Api) => {
    const res = await api('POST', '/api/v1/bulk-exports/destinations', { destination_type: 's3', display_name: 'lake', config, credentials: TEST_S3_CREDENTIALS });
    if (res.status !== 200) throw new Error(`destination answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const [destA, destB] = [await destination(apiA), await destination(apiB)];
  const [projectA, projectB] = [await projectWithRuns(apiA, 'fair-export-a', days), await projectWithRuns(apiB, 'fair-export-b', 1)];
  await timeExport(apiB, destB, projectB); // warm-up
  const alone: number[] = [];
  for (let i = 0; i < bExports; i++) alone.push((await timeExport(apiB, destB, projectB)).ms);
  console.log(`[export] B alone (1 partition): ${summary(alone)}`);

  const aIds: string[] = [];
  for (let i = 0; i < aExports; i++) aIds.push(await exportOnce(apiA, destA, projectA, days));
  const under: number[] = [];
  const seen = new Set<string>();
  const backlogLeft: number[] = [];
  for (let i = 0; i < bExports; i++) {
    const result = await timeExport(apiB, destB, projectB);
    under.push(result.ms);
    for (const s of result.seen) seen.add(s);
    let left = 0;
    for (const id of aIds) left += ((await apiA('GET', `/api/v1/bulk-exports/${id}/runs`)).body as { status: string }[]).filter((r) => r.status !== 'Completed').length;
    backlogLeft.push(left);
  }
  const ratio = percentile(under, 95) / percentile(alone, 95);
  console.log(
    `[export] B under A's backlog (${aExports} exports x ${days} partitions): ${summary(under)}; p95 ${ratio.toFixed(2)}x alone; ` +
      `A's partitions not done when each of B's finished: ${backlogLeft.join(', ')}; B's runs read ${[...seen].join(', ')} while waiting`,
  );
  for (const id of aIds) await apiA('PATCH', `/api/v1/bulk-exports/${id}`, { status: 'Cancelled' });
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('Set DATABASE_URL (a Postgres role allowed to CREATE DATABASE)');
  const scratch = new Map<DatabaseService, ScratchDatabase>();
  let platform: RunningPlatform | undefined;
  let s3: TestS3Server | undefined;
  const tag = randomUUID().slice(0, 8);
  // A queue of the bench's own on a shared NATS, deleted at the end.
  const queue = defineQueue({ name: `bench-fair-${tag}`, subject: `bench.${tag}.export.partitions`, schema: exportPartitionQueue.schema });
  const cleanup = async () => {
    await platform?.stop();
    await s3?.close();
    if (process.env.NATS_URL) {
      const bus = await createJobBus({ natsUrl: process.env.NATS_URL });
      await (bus as JetStreamJobBus).deleteQueue(queue).catch(() => undefined);
      await bus.close();
    }
    await Promise.all([...scratch.values()].map((d) => d.drop()));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    for (const service of DATABASE_SERVICES) scratch.set(service, await createScratchPostgresDatabase(adminUrl));
    s3 = await startTestS3Server({ buckets: [BUCKET] });
    platform = await startPlatform({
      dataDir: 'memory://',
      databaseUrls: Object.fromEntries([...scratch].map(([s, d]) => [s, d.url])),
      natsUrl: process.env.NATS_URL || undefined,
      internalSecret: 'bench-internal-secret-0123456789',
      migrate: true,
      logger: () => silentLogger,
      exportPartitionQueue: queue,
      exportEnv: { EXPORT_MAX_QUEUED_RUNS_PER_WORKSPACE: String(intOption('max-queued', 1)) },
      exportWorkerEnv: { EXPORT_WORKER_CONCURRENCY: String(intOption('worker-concurrency', 2)), EXPORT_WORKER_DUCKDB_THREADS: '1', EXPORT_WORKER_DUCKDB_MEMORY: '256MB' },
    });
    const { apiKey, workspace } = platform.gateway.bootstrap!;
    const admin = apiFor(platform.gatewayUrl, apiKey);
    const b = (await admin('POST', '/api/v1/workspaces', { display_name: 'bench-b' })).body.id as string;
    const [apiA, apiB] = [apiFor(platform.gatewayUrl, apiKey, workspace.id), apiFor(platform.gatewayUrl, apiKey, b)];
    console.log(`platform on scratch Postgres databases, job bus ${process.env.NATS_URL ? 'NATS JetStream' : 'in process'}; workspaces A ${workspace.id}, B ${b}`);
    if (phase === 'both' || phase === 'ingest') await ingestPhase(apiB, admin, { url: platform.gatewayUrl, apiKey, workspace: workspace.id });
    if (phase === 'both' || phase === 'export') await exportPhase(apiA, apiB, s3);
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
