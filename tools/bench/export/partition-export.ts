// End-to-end export rate: tracing's real StreamRuns server (this process) → export worker(s) (one child process
// each, the worker's real adapters) → Parquet → multipart uploads to s3rver (a child process), on loopback.
// Each worker exports a partition of its own (a project of its own, --runs runs each); all start together.
// After a run, each worker times DuckDB's own COPY ... TO parquet of the same rows, the reference rate.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/export/partition-export.ts \
//     [--runs=60000] [--payload=1500] [--workers=1,3] [--compression=zstandard] [--file-mb=64] [--threads=2]
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isCompression } from '@platform/export-parquet';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { startRecordingExportProgress, type RecordingExportProgress } from '../../../apps/export-worker/src/recording-export-progress.testing';
import { DAY_US, insertProject, insertRuns, startRunsServer, T0_US } from '../../../apps/tracing/src/grpc/stream-runs.testing';
import { intOption, option } from '../options';
import type { WorkerJob, WorkerResult } from './partition-worker-process';

const TOKEN = 'export-bench-internal-secret';
const INSERT_CHUNK = 25_000;

function child<T>(file: string, message?: unknown): { child: ChildProcess; reply: Promise<T> } {
  // fork reuses this process's execArgv, i.e. tsx's loader.
  const proc = fork(path.join(__dirname, file), { stdio: 'inherit' });
  const reply = new Promise<T>((resolve, reject) => {
    proc.once('message', (m: { result?: T; error?: string } & T) => (m.error ? reject(new Error(m.error)) : resolve((m.result ?? m) as T)));
    proc.once('exit', (code) => code && reject(new Error(`${file} exited with ${code}`)));
  });
  if (message !== undefined) proc.send(message as never);
  return { child: proc, reply };
}

/** A worker process: `ready` once it is connected, then it exports on 'go' and answers `result`. */
function startWorker(job: WorkerJob): { child: ChildProcess; ready: Promise<void>; result: Promise<WorkerResult> } {
  // BENCH_WORKER_PROFILE=<dir> writes a V8 CPU profile of each worker there (open it in Chrome DevTools).
  const profile = process.env.BENCH_WORKER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_PROFILE}`] : [];
  const proc = fork(path.join(__dirname, 'partition-worker-process.ts'), { stdio: 'inherit', execArgv: [...process.execArgv, ...profile] });
  const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => code && reject(new Error(`worker exited with ${code}`))));
  const messages: Array<(m: { ready?: boolean; result?: WorkerResult; error?: string }) => void> = [];
  proc.on('message', (m: { ready?: boolean; result?: WorkerResult; error?: string }) => messages.shift()?.(m));
  const next = () => Promise.race([new Promise<{ ready?: boolean; result?: WorkerResult; error?: string }>((resolve) => messages.push(resolve)), exited]);
  const ready = next().then((m) => {
    if (!m.ready) throw new Error(m.error ?? 'worker failed to start');
  });
  const result = ready.then(next).then((m) => {
    if (!m.result) throw new Error(m.error ?? 'worker sent no result');
    return m.result;
  });
  proc.send(job);
  return { child: proc, ready, result };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('Set DATABASE_URL (a Postgres role allowed to CREATE DATABASE)');
  const runs = intOption('runs', 60_000);
  const payload = intOption('payload', 1_500);
  const threads = intOption('threads', 2);
  const fileMaxBytes = intOption('file-mb', 64) * 1024 * 1024;
  const workerCounts = option('workers', '1,3').split(',').map(Number);
  const compression = option('compression', 'zstandard');
  if (!isCompression(compression)) throw new Error('--compression must be none, gzip, snappy or zstandard');
  const partitions = Math.max(...workerCounts);

  const scratch = await createScratchPostgresDatabase(adminUrl);
  const tmp = mkdtempSync(path.join(tmpdir(), 'export-e2e-bench-'));
  process.once('SIGINT', () => void scratch.drop().finally(() => process.exit(130)));
  let db: TracingDatabase | undefined;
  let server: Awaited<ReturnType<typeof startRunsServer>> | undefined;
  let progress: RecordingExportProgress | undefined;
  let s3: ReturnType<typeof child<{ endpoint: string; directory: string }>> | undefined;
  try {
    db = await openTracingDatabase({ url: scratch.url, dataDir: 'memory://' });
    await db.migrate();
    const tenantId = randomUUID();
    const sessions = Array.from({ length: partitions }, () => randomUUID());
    const started = performance.now();
    for (const sessionId of sessions) {
      await insertProject(db.prisma, tenantId, sessionId);
      for (let done = 0; done < runs; done += INSERT_CHUNK) {
        const count = Math.min(INSERT_CHUNK, runs - done);
        await insertRuns(db.prisma, { tenantId, sessionId, count, firstUs: T0_US + BigInt(done / 4) * 100n, stepUs: 100, perTimestamp: 4, payloadChars: payload });
      }
    }
    await db.prisma.$executeRawUnsafe('VACUUM ANALYZE runs');
    console.log(`seeded ${partitions} partition(s) × ${fmt(runs)} runs (payload ${payload} chars) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    server = await startRunsServer(db.prisma);
    progress = await startRecordingExportProgress(TOKEN);
    s3 = child<{ endpoint: string; directory: string }>('s3-server-process.ts');
    const { endpoint, directory } = await s3.reply;
    console.log(
      `end to end: StreamRuns (gRPC, this process) → worker process → Parquet (${compression}, files ≤ ${fileMaxBytes / 1024 / 1024} MiB staged) → ` +
        `s3rver (own process); ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    console.log('| workers | rows | seconds | rows/s (total) | rows/s per worker | worker CPU-s | worker peak RSS MB | DuckDB COPY rows/s (same rows) | StreamRuns alone rows/s |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    let stageLine = '';
    for (const workers of workerCounts) {
      const jobs: WorkerJob[] = sessions.slice(0, workers).map((sessionId) => {
        const exportId = randomUUID();
        const runId = randomUUID();
        progress?.addRun(runId, {
          tenant_id: tenantId,
          session_id: sessionId,
          start_time: T0_US.toString(),
          end_time: (T0_US + DAY_US).toString(),
          filter: '',
          fields: [],
          format_version: 'v2_beta',
          compression,
          destination: {
            bucket_name: 'bench',
            prefix: '',
            region: 'us-east-1',
            endpoint_url: endpoint,
            include_bucket_in_prefix: false,
            addressing_style: 'path',
            access_key_id: 'S3RVER',
            secret_access_key: 'S3RVER',
            session_token: '',
          },
        });
        return {
          tracing: `127.0.0.1:${server?.port}`,
          progress: progress?.address ?? '',
          token: TOKEN,
          exportId,
          runId,
          fileMaxBytes,
          tmpDir: tmp,
          threads,
          objectsDir: path.join(directory, 'bench', `export_id=${exportId}`),
          compression,
          reference: workers === 1,
        };
      });
      const procs = jobs.map((job) => startWorker(job));
      await Promise.all(procs.map((p) => p.ready));
      for (const p of procs) p.child.send('go');
      const results = await Promise.all(procs.map((p) => p.result));
      const seconds = (Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) / 1000;
      for (const r of results) if (r.status !== 'completed' || r.rows !== runs) throw new Error(`worker ended ${r.status} with ${r.rows} rows`);
      const total = results.reduce((n, r) => n + r.rows, 0);
      const reference = results[0].referenceRowsPerSecond;
      if (workers === 1) {
        const st = results[0].stages;
        stageLine = `1 worker, seconds per stage (overlapping): waiting for StreamRuns ${st.stream.toFixed(1)}, staging rows ${st.append.toFixed(1)}, DuckDB encode ${st.encode.toFixed(1)}, upload ${st.upload.toFixed(1)}`;
      }
      console.log(
        `| ${workers} | ${fmt(total)} | ${seconds.toFixed(1)} | ${fmt(total / seconds)} | ${fmt(total / seconds / workers)} | ` +
          `${fmt(results.reduce((n, r) => n + r.cpuSeconds, 0) / workers, 1)} | ${fmt(Math.max(...results.map((r) => r.peakRssMb)))} | ` +
          `${reference ? fmt(reference) : ''} | ${results[0].streamOnlyRowsPerSecond ? fmt(results[0].streamOnlyRowsPerSecond) : ''} |`,
      );
    }
    if (stageLine) console.log(stageLine);
    console.log(`load at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    s3?.child.disconnect();
    await progress?.close();
    await server?.close();
    await db?.close();
    await scratch.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
