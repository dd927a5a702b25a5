// Bulk export end to end: N realistic runs (1–2 KB inputs and outputs) in a scratch tracing database, exported
// through the real services — the tracing service (its own process, StreamRuns over gRPC), the export service
// (this process: HTTP API, dispatcher on NATS JetStream, progress over gRPC), export-worker processes (1, then 3)
// and s3rver (its own process) — then the same rows written by DuckDB's own COPY ... TO parquet, the reference.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres NATS_URL=nats://127.0.0.1:4222 \
//     npx tsx tools/bench/export/run.ts [--runs=200000] [--workers=1,3] [--days=6] [--compression=zstandard] [--concurrency=1]
// `--workers=1,3,6` runs one export per count with that many fresh worker processes (one partition per UTC day, so
// `--days` at least the largest count) and prints a scaling table: rows/s and µs of CPU per row of each process.
// End-to-end time runs from the export's creation to its Completed status (the export service's own timestamps),
// so it includes dispatch, every worker's StreamRuns reads, Parquet encoding, multipart uploads, size checks and
// progress reports. The reference times only DuckDB's Parquet writer: the exported rows are first loaded into a
// DuckDB table (not timed), then COPY writes them with the same codec and as many threads as a worker's DuckDB.
// The floor (the worker's own encoder: DuckDB's COPY of read_ndjson on the rows staged as the worker stages them, in
// one file) moves with the machine's load, so it runs in the export's window: --reps rounds, half before the export
// phases and half after, each at 1 thread, 2 threads and the worker's DuckDB threads; the tables give medians. Its CPU
// is this process's threads but the main one (DuckDB runs on libuv's pool and its own threads).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { runsService } from '@platform/contracts';
import { openExportDatabase, type ExportDatabase } from '@platform/export-data-access';
import { isCompression, parquetCodec, runParquetColumns, type Compression } from '@platform/export-parquet';
import { GrpcRunSource } from '@platform/export-partition';
import { createClient } from '@platform/grpc';
import type { RunningService } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { createJobBus, type JetStreamJobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { startWorkerProcess, stopWorkerProcesses, uniquePartitionQueue, type WorkerProcess } from '../../../apps/export-worker/e2e/worker-processes.e2e.testing';
import { loadExportConfig } from '../../../apps/export/src/config';
import { startExport } from '../../../apps/export/src/service';
import { DAY_US, insertProject, insertRuns, T0_US } from '../../../apps/tracing/src/grpc/stream-runs.testing';
import { freePort } from '@platform/http-server';
import { busyPercent, cpuSecondsBetween, machineCpu, processCpuSeconds } from '@platform/testing';
import { intOption, option } from '../options';
import { copyStatement } from '../../../libs/export/parquet/src/duckdb/copy-statement';
import { databaseBackendsCpu, threadCpu, threadCpuBetween } from './process-cpu';

const ROOT = path.resolve(__dirname, '../../..');
const SECRET = 'export-bench-internal-secret-0123';
const BUCKET = 'bench';
const INSERT_CHUNK = 500_000;
const MAX_RUNS = 2_000_000;
const PER_TIMESTAMP = 4;
// The worker's node options in k8s/base/export-worker.yaml (a larger initial heap: fewer full GCs).
const WORKER_NODE_ARGS = '--initial-heap-size=256';
const DUCKDB_CODEC = { UNCOMPRESSED: 'uncompressed', GZIP: 'gzip', SNAPPY: 'snappy', ZSTD: 'zstd' } as const;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Inserts `runs` runs spread evenly over `days` UTC days from 2024-05-01, four per start time. Each statement
 * derives its payloads from the row's position in it, so statements are large (payloads repeat only across
 * statements, and with them compression would look better than on real data).
 */
async function seed(db: TracingDatabase, tenantId: string, sessionId: string, runs: number, days: number): Promise<void> {
  await insertProject(db.prisma, tenantId, sessionId);
  const started = performance.now();
  const stepUs = Math.floor(Number(BigInt(days) * DAY_US) / Math.ceil(runs / PER_TIMESTAMP));
  for (let done = 0; done < runs; done += INSERT_CHUNK) {
    const count = Math.min(INSERT_CHUNK, runs - done);
    const firstUs = T0_US + BigInt(Math.floor(done / PER_TIMESTAMP)) * BigInt(stepUs);
    await insertRuns(db.prisma, { tenantId, sessionId, count, firstUs, stepUs, perTimestamp: PER_TIMESTAMP, payloadChars: 1_500 });
    process.stdout.write(`\rseeding: ${fmt(done + count)} of ${fmt(runs)} runs`);
  }
  await db.prisma.$executeRawUnsafe('VACUUM ANALYZE runs');
  const [{ size }] = await db.prisma.$queryRawUnsafe<{ size: string }[]>(`SELECT pg_size_pretty(pg_total_relation_size('runs')) AS size`);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(1)} s (runs table ${size})`);
}

/** Bytes of the exported rows as JSON (all exportable fields): the "source" measure of MB/s. */
async function sourceJsonBytes(db: TracingDatabase, sessionId: string): Promise<number> {
  const [{ bytes }] = await db.prisma.$queryRawUnsafe<{ bytes: string }[]>(
    `SELECT sum(octet_length(json_build_object(
        'id', id, 'tenant_id', tenant_id, 'session_id', session_id, 'trace_id', trace_id, 'parent_run_id', parent_run_id,
        'parent_run_ids', parent_run_ids, 'reference_example_id', reference_example_id, 'name', name, 'run_type', run_type,
        'start_time', start_time, 'end_time', end_time, 'status', status, 'is_root', is_root, 'dotted_order', dotted_order,
        'trace_tier', trace_tier, 'inputs', inputs::text, 'outputs', outputs::text, 'error', error, 'extra', extra::text,
        'events', events::text, 'tags', tags, 'feedback_stats', feedback_stats::text, 'total_tokens', total_tokens,
        'prompt_tokens', prompt_tokens, 'completion_tokens', completion_tokens, 'total_cost', total_cost,
        'prompt_cost', prompt_cost, 'completion_cost', completion_cost, 'first_token_time', first_token_time)::text))::text AS bytes
     FROM runs WHERE session_id = $1::uuid`,
    sessionId,
  );
  return Number(bytes);
}

// BENCH_PROFILE=<dir> writes a V8 CPU profile of the tracing process and of each worker there (Chrome DevTools), and
// one of this process (the export service) per end-to-end phase.
const profileArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
// BENCH_GC_STATS=<dir>: each worker counts its garbage collections (kind, pause time) and prints them after its phase.
const gcArgs = process.env.BENCH_GC_STATS ? ['--require', path.join(__dirname, 'gc-stats.cjs')] : [];

/** With BENCH_PROFILE, a V8 CPU profile of this process (the export service) from now until the returned stop. */
async function profileThisProcess(name: string): Promise<() => Promise<void>> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(path.join(dir, `export-service.${name}.${process.pid}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/** The tracing service as its own process (`apps/tracing/src/main.ts`), ready to serve StreamRuns. */
async function startTracingProcess(databaseUrl: string): Promise<{ child: ChildProcess; grpc: string; stop(): Promise<void> }> {
  const [port, grpcPort] = [await freePort('127.0.0.1'), await freePort('127.0.0.1')];
  // BENCH_TRACING_NODE_ARGS: node options for the tracing process, e.g. V8 heap flags to compare.
  const nodeArgs = (process.env.BENCH_TRACING_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profileArgs, ...nodeArgs, '--import', 'tsx', path.join(ROOT, 'apps/tracing/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), GRPC_PORT: String(grpcPort), DATABASE_URL: databaseUrl, INTERNAL_SECRET: SECRET, LOG_LEVEL: 'warn', DATA_DIR: 'memory://' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
    if (child.exitCode !== null) throw new Error(`tracing exited with ${child.exitCode}`);
    if (await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error('tracing did not become ready');
  }
  return {
    child,
    grpc: `127.0.0.1:${grpcPort}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** s3rver in its own process (tools/bench/export/s3-server-process.ts). */
async function startS3Process(): Promise<{ endpoint: string; directory: string; pid?: number; stop(): Promise<void> }> {
  // fork reuses this process's execArgv, i.e. tsx's loader.
  const child = fork(path.join(__dirname, 's3-server-process.ts'), { stdio: 'inherit' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { endpoint, directory } = await new Promise<{ endpoint: string; directory: string }>((resolve, reject) => {
    child.once('message', (m: { endpoint: string; directory: string }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    endpoint,
    directory,
    pid: child.pid,
    stop: async () => {
      child.disconnect();
      await exited;
    },
  };
}

interface PhaseResult {
  label: string;
  workers: number;
  partitions: number;
  rows: number;
  seconds: number;
  parquetBytes: number;
  files: number;
  cpuSeconds: number;
  /** Of `cpuSeconds`, the workers' main (JavaScript) threads; the rest is DuckDB, libuv's pool and GC helpers. */
  workerMainCpuSeconds: number;
  tracingCpuSeconds: number;
  /** CPU seconds of the other parts: the scratch databases' Postgres backends, s3rver, and this process (the export service). */
  otherCpuSeconds: { postgres: number; s3: number; exportService: number };
  /** Share of the machine's CPU time that was busy during the phase (every process, other users' included). */
  busyPercent: number;
  peakRssMb: number;
  exportId: string;
}

/** Every run of the export's window through StreamRuns, partition after partition, one stream at a time. */
async function* streamPartitions(source: GrpcRunSource, tenantId: string, sessionId: string, days: number) {
  for (let day = 0; day < days; day++) {
    const startUs = T0_US + BigInt(day) * DAY_US;
    const query = { tenantId, sessionId, startUs: startUs.toString(), endUs: (startUs + DAY_US).toString(), filter: '', fields: [] };
    yield* source.stream(query, new AbortController().signal);
  }
}

interface References {
  /** StreamRuns read alone, one stream at a time: the ceiling of what one worker can export. */
  stream: { rows: number; seconds: number; tracingCpuSeconds: number; postgresCpuSeconds: number };
  /**
   * The floor: the worker's own encoder (DuckDB `COPY (SELECT ... FROM read_ndjson(stage)) TO parquet`, the worker's
   * statement and settings) on one staged file of all rows, per DuckDB thread count (1, 2, the worker's).
   */
  ndjson: { stageSeconds: number; floors: Floor[] };
  /** DuckDB's writer alone: COPY of an in-memory table. */
  table: { seconds: number; bytes: number; cpuSeconds: number };
}

/** One COPY of the staged rows: wall seconds, Parquet bytes, and CPU seconds of DuckDB's threads. */
interface Encoded {
  seconds: number;
  bytes: number;
  cpuSeconds: number;
}

/** The floor at one thread count: every run (rounds before and after the export phases), and their medians. */
interface Floor extends Encoded {
  threads: number;
  runs: Encoded[];
}

interface Stage {
  path: string;
  rows: number;
  bytes: number;
  maxLineBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * DuckDB's COPY of the staged rows into Parquet in a fresh instance set up as the worker's. CPU: this process's
 * threads but its main one (the COPY runs on libuv's pool and DuckDB's threads; the main thread meanwhile serves the
 * export service's timers, which are not the encoder's).
 */
async function encodeStaged(stage: Stage, compression: Compression, threads: number, scratch: string): Promise<Encoded> {
  const duck = await DuckDBInstance.create(':memory:', {
    threads: String(threads),
    memory_limit: '1GB',
    temp_directory: path.join(scratch, 'duckdb-spill'),
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await duck.connect();
  const outputPath = path.join(scratch, `floor-${threads}.parquet`);
  try {
    await connection.run(`SET TimeZone = 'UTC'`);
    const sql = copyStatement({ columns: runParquetColumns([], 'v2_beta'), codec: parquetCodec(compression), stagePath: stage.path, outputPath, ...stage });
    const cpu = threadCpu(process.pid);
    const started = performance.now();
    await connection.run(sql);
    const seconds = (performance.now() - started) / 1000;
    const used = threadCpuBetween(cpu, threadCpu(process.pid));
    return { seconds, bytes: statSync(outputPath).size, cpuSeconds: used.total - used.main };
  } finally {
    connection.closeSync();
    duck.closeSync();
    rmSync(outputPath, { force: true });
  }
}

/** One round of the floor: a COPY per thread count, one after the other. */
async function floorRound(stage: Stage, compression: Compression, threadCounts: number[], scratch: string, into: Map<number, Encoded[]>): Promise<void> {
  for (const threads of threadCounts) {
    const encoded = await encodeStaged(stage, compression, threads, scratch);
    into.set(threads, [...(into.get(threads) ?? []), encoded]);
  }
}

function floorsOf(runs: Map<number, Encoded[]>): Floor[] {
  return [...runs].map(([threads, all]) => ({
    threads,
    runs: all,
    seconds: median(all.map((r) => r.seconds)),
    bytes: median(all.map((r) => r.bytes)),
    cpuSeconds: median(all.map((r) => r.cpuSeconds)),
  }));
}

// The rows staged as NDJSON the way the worker stages them (read once through StreamRuns, before the export phases, so
// the floor can run in the same window as the worker: rounds before and after the phases).
async function stageRows(tracing: { grpc: string }, tenantId: string, sessionId: string, days: number, scratch: string): Promise<{ stage: Stage; stageSeconds: number }> {
  const client = createClient(runsService().Client, tracing.grpc, { token: SECRET });
  const stage: Stage = { path: path.join(scratch, 'floor.ndjson'), rows: 0, bytes: 0, maxLineBytes: 0 };
  try {
    const source = new GrpcRunSource(client, { deadlineMs: 3_600_000 });
    const file = await open(stage.path, 'wx');
    let staging = 0;
    try {
      for await (const page of streamPartitions(source, tenantId, sessionId, days)) {
        const t = performance.now();
        await file.write(page.rows.lines);
        staging += performance.now() - t;
        stage.rows += page.rows.count;
        stage.bytes += page.rows.lines.length;
        stage.maxLineBytes = Math.max(stage.maxLineBytes, page.rows.maxLineBytes);
      }
    } finally {
      await file.close();
    }
    return { stage, stageSeconds: staging / 1000 };
  } finally {
    client.close();
  }
}

// The same rows, read once more through StreamRuns, only read (timed).
async function streamAlone(tracing: { grpc: string; pid?: number }, postgresCpuNow: () => Map<number, number>, tenantId: string, sessionId: string, days: number): Promise<References['stream']> {
  const client = createClient(runsService().Client, tracing.grpc, { token: SECRET });
  try {
    const source = new GrpcRunSource(client, { deadlineMs: 3_600_000 });
    const tracingCpu = processCpuSeconds(tracing.pid);
    const postgresCpu = postgresCpuNow();
    const started = performance.now();
    let rows = 0;
    for await (const page of streamPartitions(source, tenantId, sessionId, days)) rows += page.rows.count;
    return {
      rows,
      seconds: (performance.now() - started) / 1000,
      tracingCpuSeconds: processCpuSeconds(tracing.pid) - tracingCpu,
      postgresCpuSeconds: cpuSecondsBetween(postgresCpu, postgresCpuNow()),
    };
  } finally {
    client.close();
  }
}

async function readBack(dir: string): Promise<{ n: number; ids: number }> {
  const duck = await DuckDBInstance.create(':memory:');
  const connection = await duck.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::BIGINT AS n, count(DISTINCT id)::BIGINT AS ids FROM read_parquet('${dir}/**/*._S3rver_object', hive_partitioning = true)`,
    );
    const [row] = reader.getRowObjectsJson();
    return { n: Number(row.n), ids: Number(row.ids) };
  } finally {
    connection.closeSync();
    duck.closeSync();
  }
}

// DuckDB's writer alone on the same rows: loaded from the exported files into a table first (not timed), then
// COPY ... TO parquet with the export's codec and `threads` threads. Median of `reps`.
async function duckdbReference(dir: string, compression: Compression, threads: number, scratch: string, reps = 3): Promise<{ seconds: number; bytes: number; cpuSeconds: number }> {
  const duck = await DuckDBInstance.create(':memory:', { threads: String(threads), temp_directory: path.join(scratch, 'duckdb-spill') });
  const connection = await duck.connect();
  try {
    await connection.run(`CREATE TABLE runs AS SELECT * FROM read_parquet('${dir}/**/*._S3rver_object', hive_partitioning = false)`);
    const results: { seconds: number; bytes: number; cpuSeconds: number }[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const out = path.join(scratch, `reference-${rep}.parquet`);
      const cpu = process.cpuUsage();
      const started = performance.now();
      await connection.run(`COPY runs TO '${out}' (FORMAT parquet, COMPRESSION ${DUCKDB_CODEC[parquetCodec(compression)]})`);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      results.push({ seconds, bytes: statSync(out).size, cpuSeconds: (used.user + used.system) / 1e6 });
      rmSync(out, { force: true });
    }
    return results.sort((a, b) => a.seconds - b.seconds)[Math.floor(reps / 2)];
  } finally {
    connection.closeSync();
    duck.closeSync();
  }
}

/**
 * µs of CPU per exported row, per process (from /proc), for each end-to-end phase, beside the floor: DuckDB's own
 * `read_ndjson → parquet` on the same rows (the worker's statement; 1 thread, 2 threads, the worker's threads) and
 * DuckDB's writer alone. Targets (issue 20 §3): worker ≤ 1.2 × the floor; the pipeline without the test S3 server ≤ 100 µs.
 * The ratio in bold is against the floor with the worker's own DuckDB thread count.
 */
function printCpuPerRow(phases: PhaseResult[], refs: References, runs: number, workerThreads: number): void {
  const us = (seconds: number, rows: number) => fmt((seconds * 1e6) / rows, 1);
  const floors = refs.ndjson.floors;
  const floorUs = (f: Floor) => (f.cpuSeconds * 1e6) / runs;
  const threadsLabel = (n: number) => `${n} thread${n > 1 ? 's' : ''}${n === workerThreads ? ", the worker's" : ''}`;
  console.log(
    `| µs of CPU per row | worker (all threads) | worker main thread (JS) | worker other threads (DuckDB, fs pool, GC) | tracing | Postgres | ` +
      `export service | pipeline without s3rver | s3rver | worker / floor (${floors.map((f) => threadsLabel(f.threads)).join('; ')}) |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of phases) {
    const o = p.otherCpuSeconds;
    const pipeline = p.cpuSeconds + p.tracingCpuSeconds + o.postgres + o.exportService;
    const worker = (p.cpuSeconds * 1e6) / p.rows;
    const ratios = floors.map((f) => (f.threads === workerThreads ? `**${(worker / floorUs(f)).toFixed(2)}**` : (worker / floorUs(f)).toFixed(2)));
    console.log(
      `| end to end, ${p.label} (${fmt(p.rows / p.seconds)} rows/s) | ${us(p.cpuSeconds, p.rows)} | ${us(p.workerMainCpuSeconds, p.rows)} | ${us(p.cpuSeconds - p.workerMainCpuSeconds, p.rows)} | ` +
        `${us(p.tracingCpuSeconds, p.rows)} | ${us(o.postgres, p.rows)} | ${us(o.exportService, p.rows)} | **${us(pipeline, p.rows)}** | ${us(o.s3, p.rows)} | ` +
        `${ratios.join('; ')} |`,
    );
  }
  console.log(`| StreamRuns alone (no worker) | – | – | – | ${us(refs.stream.tracingCpuSeconds, runs)} | ${us(refs.stream.postgresCpuSeconds, runs)} | – | – | – | – |`);
  for (const f of floors) {
    const each = f.runs.map((r) => fmt((r.cpuSeconds * 1e6) / runs, 1)).join(', ');
    console.log(
      `| floor: DuckDB read_ndjson → parquet, ${threadsLabel(f.threads)} (${fmt(runs / f.seconds)} rows/s; median of ${each}) | ${fmt(floorUs(f), 1)} | – | – | – | – | – | – | – | – |`,
    );
  }
  console.log(`| DuckDB writer alone: table → parquet, ${availableParallelism()} threads | ${us(refs.table.cpuSeconds, runs)} | – | – | – | – | – | – | – | – |`);
}

/**
 * One line per worker count (`--workers=1,3,6`): rows/s, its ratio to one worker's, and µs of CPU per exported row of
 * each process: the workers (all of them together, and their main threads), tracing, Postgres, the export service,
 * s3rver, and the pipeline without s3rver.
 */
function printScaling(phases: PhaseResult[]): void {
  const us = (seconds: number, rows: number) => fmt((seconds * 1e6) / rows, 1);
  const one = phases.find((p) => p.workers === 1);
  console.log(
    '| workers | partitions | rows/s | × 1 worker | µs of CPU per row: workers (all threads) | workers\' main threads | tracing | Postgres | export service | ' +
      'pipeline without s3rver | s3rver | machine CPU busy |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of phases) {
    const o = p.otherCpuSeconds;
    const rate = p.rows / p.seconds;
    const pipeline = p.cpuSeconds + p.tracingCpuSeconds + o.postgres + o.exportService;
    const ratio = one ? `${(rate / (one.rows / one.seconds)).toFixed(2)}×` : '–';
    console.log(
      `| ${p.workers} | ${p.partitions} | ${fmt(rate)} | ${ratio} | ${us(p.cpuSeconds, p.rows)} | ${us(p.workerMainCpuSeconds, p.rows)} | ${us(p.tracingCpuSeconds, p.rows)} | ` +
        `${us(o.postgres, p.rows)} | ${us(o.exportService, p.rows)} | ${us(pipeline, p.rows)} | ${us(o.s3, p.rows)} | ${p.busyPercent.toFixed(0)}% |`,
    );
  }
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const natsUrl = process.env.NATS_URL;
  if (!adminUrl || !natsUrl) throw new Error('Set DATABASE_URL (a Postgres role allowed to CREATE DATABASE) and NATS_URL (NATS with JetStream)');
  const runs = Math.min(intOption('runs', 200_000), MAX_RUNS);
  const days = intOption('days', 6);
  const workerCounts = option('workers', '1,3').split(',').map(Number);
  if (workerCounts.some((w) => !Number.isInteger(w) || w < 1)) throw new Error('--workers must be a list of positive integers');
  // One partition per UTC day: a worker beyond the partition count has nothing to do.
  if (Math.max(...workerCounts) > days) console.warn(`--workers=${Math.max(...workerCounts)} with --days=${days}: only ${days} partitions, so some workers idle`);
  const concurrency = intOption('concurrency', 1);
  // The worker's EXPORT_WORKER_DUCKDB_THREADS (default: its own default) and the DuckDB writer reference's repetitions.
  const duckdbThreads = option('duckdb-threads', '');
  const reps = intOption('reps', 3);
  const compression = option('compression', 'zstandard');
  if (!isCompression(compression)) throw new Error('--compression must be none, gzip, snappy or zstandard');

  const queue = uniquePartitionQueue('export-bench');
  const scratchDir = mkdtempSync(path.join(tmpdir(), 'export-bench-'));
  const databases: ScratchDatabase[] = [];
  let tracingDb: TracingDatabase | undefined;
  let exportDb: ExportDatabase | undefined;
  let tracing: Awaited<ReturnType<typeof startTracingProcess>> | undefined;
  let s3: Awaited<ReturnType<typeof startS3Process>> | undefined;
  let exportService: RunningService | undefined;
  let workers: WorkerProcess[] = [];
  const cleanup = async () => {
    await stopWorkerProcesses(workers).catch(() => undefined);
    await exportService?.stop().catch(() => undefined);
    await tracing?.stop().catch(() => undefined);
    await s3?.stop().catch(() => undefined);
    await tracingDb?.close().catch(() => undefined);
    await exportDb?.close().catch(() => undefined);
    await Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
    const bus = await createJobBus({ natsUrl, logger: silentLogger }).catch(() => undefined);
    await (bus as JetStreamJobBus | undefined)?.deleteQueue(queue).catch(() => undefined);
    await bus?.close();
    rmSync(scratchDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    const tracingScratch = await createScratchPostgresDatabase(adminUrl);
    databases.push(tracingScratch);
    const exportScratch = await createScratchPostgresDatabase(adminUrl);
    databases.push(exportScratch);
    tracingDb = await openTracingDatabase({ url: tracingScratch.url, dataDir: 'memory://' });
    await tracingDb.migrate();
    const tenantId = randomUUID();
    const sessionId = randomUUID();
    await seed(tracingDb, tenantId, sessionId, runs, days);
    // Postgres' share: the backends of the two scratch databases (tracing's and the export service's), not the
    // whole server, which other work may share.
    const databaseNames = [tracingScratch.url, exportScratch.url].map((url) => decodeURIComponent(new URL(url).pathname.slice(1)));
    const postgresCpuNow = () => new Map(databaseNames.flatMap((name) => [...databaseBackendsCpu(name)]));
    const sourceBytes = await sourceJsonBytes(tracingDb, sessionId);

    tracing = await startTracingProcess(tracingScratch.url);
    s3 = await startS3Process();
    exportService = await startExport(
      loadExportConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        GRPC_PORT: '0',
        INTERNAL_SECRET: SECRET,
        LOG_LEVEL: 'warn',
        DATA_DIR: 'memory://',
        DATABASE_URL: exportScratch.url,
        MIGRATE_ON_START: 'true',
        NATS_URL: natsUrl,
        TRACING_GRPC: tracing.grpc,
        EXPORT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        // The bench's s3rver listens on 127.0.0.1, which only the operator's allowlist opens.
        EGRESS_ALLOWED_CIDRS: '127.0.0.1/32',
      }),
      silentLogger,
      { partitionQueue: queue },
    );
    exportDb = await openExportDatabase({ url: exportScratch.url, dataDir: 'memory://' });
    const api = async (method: string, route: string, body?: unknown) => {
      const requestId = randomUUID();
      const res = await fetch(`${exportService?.url}/api/v1${route}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId, organizationId: tenantId, subject: 'bench' }, requestId) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { id: string };
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const destination = await api('POST', '/bulk-exports/destinations', {
      destination_type: 's3',
      display_name: 'bench',
      config: { bucket_name: BUCKET, prefix: 'runs', endpoint_url: s3.endpoint, region: 'us-east-1' },
      credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
    });

    const threads = availableParallelism();
    console.log(
      `${fmt(runs)} runs over ${days} day partition(s), ${(sourceBytes / 1e6).toFixed(0)} MB as JSON (${fmt(sourceBytes / runs)} B/run); ` +
        `Parquet v2_beta ${compression}; worker defaults but concurrency ${concurrency} (DuckDB threads ${duckdbThreads || `${concurrency} (the default: one per partition in flight)`}, 1GB, files ≤ 64 MiB staged); ` +
        `${cpus().length} CPUs, load ${load()}`,
    );

    // The floor (DuckDB's own encoder on the staged rows) moves with the machine's load, so it runs in the same window
    // as the export phases: --reps rounds, the first half before the phases and the rest after, each a COPY per
    // thread count (1, 2, and the worker's DuckDB threads); the tables give the medians.
    const workerDuckdbThreads = Number(duckdbThreads || concurrency);
    const floorThreads = [...new Set([1, 2, workerDuckdbThreads])].sort((a, b) => a - b);
    const { stage, stageSeconds } = await stageRows(tracing, tenantId, sessionId, days, scratchDir);
    if (stage.rows !== runs) throw new Error(`staged ${stage.rows} rows, ${runs} expected`);
    const floorRuns = new Map<number, Encoded[]>();
    const roundsBefore = Math.ceil(reps / 2);
    for (let round = 0; round < roundsBefore; round++) await floorRound(stage, compression, floorThreads, scratchDir, floorRuns);
    console.log(`floor: ${roundsBefore} round(s) of DuckDB read_ndjson → parquet (${floorThreads.join(', ')} threads) before the export (load ${load()})`);

    const phases: PhaseResult[] = [];
    const workerOptions = {
      queue,
      natsUrl,
      tracingGrpc: tracing.grpc,
      exportGrpc: `127.0.0.1:${exportService.grpcPort}`,
      internalSecret: SECRET,
      // BENCH_WORKER_ENV="NAME=value ...": more worker settings to compare, e.g. EXPORT_WORKER_STREAM_BATCH_SIZE=250.
      env: {
        EXPORT_WORKER_CONCURRENCY: String(concurrency),
        ...(duckdbThreads ? { EXPORT_WORKER_DUCKDB_THREADS: duckdbThreads } : {}),
        ...Object.fromEntries((process.env.BENCH_WORKER_ENV ?? '').split(' ').filter(Boolean).map((kv) => kv.split('='))),
      },
      // BENCH_WORKER_NODE_ARGS: node options for the workers only, e.g. V8 heap flags to compare (with
      // BENCH_WORKER_STDOUT=1 the workers' output shows, e.g. `--trace-gc`).
      stdio: process.env.BENCH_WORKER_STDOUT ? ('inherit' as const) : undefined,
      // Default: the node options of k8s/base/export-worker.yaml.
      nodeArgs: [...profileArgs, ...gcArgs, ...(process.env.BENCH_WORKER_NODE_ARGS ?? WORKER_NODE_ARGS).split(' ').filter(Boolean)],
    };
    for (const count of workerCounts) {
      workers = await Promise.all(Array.from({ length: count }, (_, i) => startWorkerProcess(i, workerOptions, 120_000)));
      const cpuAtStart = workers.map((w) => w.cpuSeconds());
      const threadsAtStart = workers.map((w) => threadCpu(w.pid));
      const tracingCpuAtStart = processCpuSeconds(tracing.child.pid);
      const otherCpu = () => ({ postgres: postgresCpuNow(), s3: processCpuSeconds(s3?.pid), exportService: processCpuSeconds(process.pid) });
      const otherAtStart = otherCpu();
      const stopProfile = await profileThisProcess(`${count}-workers`);
      const machineAtStart = machineCpu();
      console.log(`${count} worker(s) ready (load ${load()}); exporting…`);
      const created = await api('POST', '/bulk-exports', {
        bulk_export_destination_id: destination.id,
        session_id: sessionId,
        start_time: '2024-05-01T00:00:00Z',
        end_time: new Date(Date.parse('2024-05-01T00:00:00Z') + days * 86_400_000).toISOString(),
        format_version: 'v2_beta',
        compression,
      });
      let status = 'Created';
      const peakRss = workers.map(() => 0);
      for (let tick = 1; status === 'Created' || status === 'Running'; tick++) {
        // The time measured is the export's own (created_at → finished_at): polling often only costs CPU, which
        // counts as the export service's (this process). The status is read once a second, in plain SQL (through
        // Prisma's query compiler it cost ~1 µs per exported row).
        await sleep(250);
        // Sampled while running, as VmHWM is lost once a worker exits.
        workers.forEach((w, i) => (peakRss[i] = Math.max(peakRss[i], w.peakRssMb() ?? 0)));
        if (tick % 4 === 0) [{ status }] = await exportDb.sql.query<{ status: string }>('SELECT status FROM bulk_exports WHERE id = $1::uuid', [created.id]);
      }
      if (status !== 'Completed') throw new Error(`export ${created.id} ended ${status}`);
      const exp = await exportDb.prisma.bulkExport.findUniqueOrThrow({ where: { id: created.id } });
      const exportRuns = await exportDb.prisma.bulkExportRun.findMany({ where: { bulkExportId: created.id } });
      const cpuSeconds = workers.reduce((sum, w, i) => sum + ((w.cpuSeconds()) - cpuAtStart[i]), 0);
      const workerMainCpuSeconds = workers.reduce((sum, w, i) => sum + threadCpuBetween(threadsAtStart[i], threadCpu(w.pid)).main, 0);
      const tracingCpuSeconds = processCpuSeconds(tracing.child.pid) - tracingCpuAtStart;
      const otherAtEnd = otherCpu();
      const busy = busyPercent(machineAtStart, machineCpu());
      await stopProfile();
      const pids = workers.map((w) => w.pid);
      await stopWorkerProcesses(workers);
      workers = [];
      if (process.env.BENCH_GC_STATS) {
        for (const pid of pids) console.log(`  worker ${pid} GC: ${readFileSync(path.join(process.env.BENCH_GC_STATS, `gc.${pid}.json`), 'utf8').replace(/\s+/g, ' ')}`);
      }
      const result: PhaseResult = {
        label: `${count} worker${count > 1 ? 's' : ''}`,
        workers: count,
        partitions: exportRuns.length,
        rows: exportRuns.reduce((n, r) => n + Number(r.rowsWritten), 0),
        seconds: ((exp.finishedAt as Date).getTime() - exp.createdAt.getTime()) / 1000,
        parquetBytes: exportRuns.reduce((n, r) => n + Number(r.bytesWritten), 0),
        files: exportRuns.reduce((n, r) => n + (r.files as unknown[]).length, 0),
        cpuSeconds,
        workerMainCpuSeconds,
        tracingCpuSeconds,
        otherCpuSeconds: {
          postgres: cpuSecondsBetween(otherAtStart.postgres, otherAtEnd.postgres),
          s3: otherAtEnd.s3 - otherAtStart.s3,
          exportService: otherAtEnd.exportService - otherAtStart.exportService,
        },
        busyPercent: busy,
        peakRssMb: Math.max(...peakRss),
        exportId: created.id,
      };
      const read = await readBack(path.join(s3.directory, BUCKET, 'runs', `export_id=${created.id}`));
      if (result.rows !== runs || read.n !== runs || read.ids !== runs) {
        throw new Error(`export ${created.id}: ${result.rows} rows recorded, ${read.n} read back (${read.ids} distinct ids), ${runs} expected`);
      }
      console.log(`  done in ${result.seconds.toFixed(1)} s; read back ${fmt(read.n)} rows, ${fmt(read.ids)} distinct ids (load ${load()})`);
      phases.push(result);
    }

    for (let round = roundsBefore; round < reps; round++) await floorRound(stage, compression, floorThreads, scratchDir, floorRuns);
    console.log(`floor: ${reps - roundsBefore} round(s) after the export (load ${load()})`);
    rmSync(stage.path, { force: true });
    const stream = await streamAlone({ grpc: tracing.grpc, pid: tracing.child.pid }, postgresCpuNow, tenantId, sessionId, days);
    if (stream.rows !== runs) throw new Error(`StreamRuns read ${stream.rows} rows, ${runs} expected`);
    const refs: References = {
      stream,
      ndjson: { stageSeconds, floors: floorsOf(floorRuns) },
      table: await duckdbReference(path.join(s3.directory, BUCKET, 'runs', `export_id=${phases[0].exportId}`), compression, threads, scratchDir, reps),
    };
    console.log('');
    console.log('| pipeline | partitions | rows | seconds | rows/s | source MB/s (JSON) | Parquet MB/s | CPU-s (workers; DuckDB) | rows per CPU-s | tracing CPU-s | CPU-s (Postgres; s3rver; export service) | machine CPU busy | peak RSS per worker (MB) |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const line = (cells: Array<string | number>) => console.log(`| ${cells.join(' | ')} |`);
    const mbps = (bytes: number, seconds: number) => (bytes / 1e6 / seconds).toFixed(1);
    for (const p of phases) {
      const rates = [fmt(p.rows / p.seconds), mbps(sourceBytes, p.seconds), mbps(p.parquetBytes, p.seconds)];
      const other = [p.otherCpuSeconds.postgres, p.otherCpuSeconds.s3, p.otherCpuSeconds.exportService].map((s) => s.toFixed(1)).join('; ');
      const cpu = [p.cpuSeconds.toFixed(1), fmt(p.rows / p.cpuSeconds), p.tracingCpuSeconds.toFixed(1), other, `${p.busyPercent.toFixed(0)}%`];
      line([`end to end, ${p.label}`, p.partitions, fmt(p.rows), p.seconds.toFixed(1), ...rates, ...cpu, fmt(p.peakRssMb)]);
    }
    line(['StreamRuns alone (read only, one stream at a time)', days, fmt(refs.stream.rows), refs.stream.seconds.toFixed(1), fmt(runs / refs.stream.seconds), mbps(sourceBytes, refs.stream.seconds), '–', '–', '–', refs.stream.tracingCpuSeconds.toFixed(1), `${refs.stream.postgresCpuSeconds.toFixed(1)}; –; –`, '–', '–']);
    for (const f of refs.ndjson.floors) {
      line([`DuckDB COPY read_ndjson → parquet (the worker's encoder, one file, ${f.threads} thread${f.threads > 1 ? 's' : ''})`, '–', fmt(runs), f.seconds.toFixed(1), fmt(runs / f.seconds), mbps(sourceBytes, f.seconds), mbps(f.bytes, f.seconds), f.cpuSeconds.toFixed(1), fmt(runs / f.cpuSeconds), '–', '–', '–', '–']);
    }
    line([`DuckDB COPY table → parquet (writer only, ${threads} threads)`, '–', fmt(runs), refs.table.seconds.toFixed(1), fmt(runs / refs.table.seconds), mbps(sourceBytes, refs.table.seconds), mbps(refs.table.bytes, refs.table.seconds), refs.table.cpuSeconds.toFixed(1), fmt(runs / refs.table.cpuSeconds), '–', '–', '–', '–']);
    console.log(`(staging the rows as NDJSON for the encoder line took ${refs.ndjson.stageSeconds.toFixed(1)} s, not counted in it; DuckDB lines are medians of ${reps})`);
    console.log('');
    const one = phases.find((p) => p.workers === 1);
    if (one) {
      const rate = one.rows / one.seconds;
      console.log(`1 worker end to end / DuckDB writer (table → parquet): ${(rate / (runs / refs.table.seconds)).toFixed(2)} (target ≥ 0.50)`);
      const floor = refs.ndjson.floors.find((f) => f.threads === workerDuckdbThreads) as Floor;
      console.log(`1 worker end to end / DuckDB read_ndjson → parquet (${floor.threads} thread(s)): ${(rate / (runs / floor.seconds)).toFixed(2)}`);
      console.log(`1 worker end to end / StreamRuns alone: ${(rate / (runs / refs.stream.seconds)).toFixed(2)}`);
      for (const p of phases.filter((q) => q.workers > 1)) {
        console.log(
          `${p.workers} workers / 1 worker: ${(p.rows / p.seconds / rate).toFixed(2)}× rows/s (linear would be ${p.workers}×); ` +
            `rows per worker CPU-s ${((p.rows / p.cpuSeconds) / (one.rows / one.cpuSeconds)).toFixed(2)}× of 1 worker's`,
        );
      }
    }
    console.log('');
    printScaling(phases);
    console.log('');
    printCpuPerRow(phases, refs, runs, workerDuckdbThreads);
    console.log(`load at the end: ${load()}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
