// One export worker for the end-to-end benchmark, in a process of its own: exports one partition with the worker's
// real adapters (StreamRuns over gRPC, DuckDB Parquet, S3 multipart, progress over gRPC), then, for reference,
// DuckDB's own COPY ... TO parquet of the same rows (read back from the exported files).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportProgressService, runsService, type RunSpec__Output } from '@platform/contracts';
import { createDuckDbParquetWriterFactory, parquetCodec, type Compression } from '@platform/export-parquet';
import { exportPartition, GrpcProgressReporter, GrpcRunSource, s3ObjectStores, type ExportPartitionDeps } from '@platform/export-partition';
import { callUnary, createClient } from '@platform/grpc';
import { testEgress } from '@platform/export-s3/testing';
import { silentLogger } from '@platform/logging';

export interface WorkerJob {
  tracing: string;
  progress: string;
  token: string;
  exportId: string;
  runId: string;
  fileMaxBytes: number;
  tmpDir: string;
  threads: number;
  /** Where s3rver keeps the export's objects, and the codec, for the reference COPY. */
  objectsDir: string;
  compression: Compression;
  reference: boolean;
}

export interface WorkerResult {
  status: string;
  rows: number;
  seconds: number;
  /** Epoch ms of the start and end of the export. */
  startedAt: number;
  endedAt: number;
  cpuSeconds: number;
  peakRssMb: number;
  referenceRowsPerSecond?: number;
  /** The same partition only read through StreamRuns (no Parquet, no upload): the ceiling of the export. */
  streamOnlyRowsPerSecond?: number;
  /** Seconds spent in each stage (stages overlap, so they add up to more than the wall time). */
  stages: Stages;
}

interface Stages {
  /** Waiting for the next StreamRuns page. */
  stream: number;
  /** Staging rows (JSON on disk). */
  append: number;
  /** DuckDB COPY to Parquet. */
  encode: number;
  /** Multipart upload and HeadObject. */
  upload: number;
}

// Wrappers timing each stage of the use case, for the breakdown.
function timed(stages: Stages, deps: ExportPartitionDeps): ExportPartitionDeps {
  const time = async <T>(stage: keyof Stages, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      stages[stage] += (performance.now() - started) / 1000;
    }
  };
  return {
    ...deps,
    runs: {
      stream: (query, signal) => ({
        [Symbol.asyncIterator]: () => {
          const pages = deps.runs.stream(query, signal)[Symbol.asyncIterator]();
          return { next: () => time('stream', () => pages.next()), return: async () => (await pages.return?.()) ?? { done: true, value: undefined } };
        },
      }),
    },
    parquet: {
      open: async (options) => {
        const writer = await deps.parquet.open(options);
        return {
          get rows() {
            return writer.rows;
          },
          get stagedBytes() {
            return writer.stagedBytes;
          },
          append: (rows) => time('append', () => writer.append(rows)),
          appendNdjson: (rows) => time('append', () => writer.appendNdjson(rows)),
          finish: () => time('encode', () => writer.finish()),
          dispose: () => writer.dispose(),
        };
      },
      close: () => deps.parquet.close(),
    },
    objectStores: (destination, tenantId) => {
      const store = deps.objectStores(destination, tenantId);
      return {
        putFile: (key, file, signal) => time('upload', () => store.putFile(key, file, signal)),
        sizeOf: (key, signal) => time('upload', () => store.sizeOf(key, signal)),
        close: () => store.close(),
      };
    },
  };
}

function objectFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('._S3rver_object'))
    .map((f) => join(dir, f));
}

// DuckDB's COPY of the same rows: loaded into a table first (not timed), then written with the same codec.
async function referenceCopy(job: WorkerJob, rows: number): Promise<number> {
  const db = await DuckDBInstance.create(':memory:', { threads: String(job.threads) });
  const connection = await db.connect();
  try {
    const files = objectFiles(job.objectsDir).map((f) => `'${f}'`).join(', ');
    await connection.run(`CREATE TABLE runs AS SELECT * FROM read_parquet([${files}])`);
    const codec = { UNCOMPRESSED: 'uncompressed', GZIP: 'gzip', SNAPPY: 'snappy', ZSTD: 'zstd' }[parquetCodec(job.compression)];
    const started = performance.now();
    await connection.run(`COPY runs TO '${join(job.tmpDir, `reference-${job.runId}.parquet`)}' (FORMAT parquet, COMPRESSION ${codec})`);
    return rows / ((performance.now() - started) / 1000);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

async function streamOnly(source: GrpcRunSource, spec: RunSpec__Output): Promise<number> {
  const started = performance.now();
  let rows = 0;
  const query = { tenantId: spec.tenant_id, sessionId: spec.session_id, startUs: spec.start_time, endUs: spec.end_time, filter: '', fields: [] };
  for await (const page of source.stream(query, new AbortController().signal)) rows += page.rows.count;
  return rows / ((performance.now() - started) / 1000);
}

async function run(job: WorkerJob, go: Promise<void>): Promise<WorkerResult> {
  const auth = { token: job.token, defaultDeadlineMs: 60_000 };
  const tracing = createClient(runsService().Client, job.tracing, auth);
  const progress = createClient(exportProgressService().Client, job.progress, auth);
  const parquet = createDuckDbParquetWriterFactory({ tempDir: job.tmpDir, threads: job.threads });
  const deps: ExportPartitionDeps & { runs: GrpcRunSource } = {
    progress: new GrpcProgressReporter(progress),
    runs: new GrpcRunSource(tracing, { deadlineMs: 3_600_000 }),
    // The bench's S3 (s3rver) listens on loopback: allowed as an operator would allow a local MinIO.
    objectStores: s3ObjectStores({ logger: silentLogger, egress: testEgress() }),
    parquet,
    logger: silentLogger,
  };
  // Everything loaded and connected before the start signal, so workers start together.
  const checkpoint = await callUnary(progress, 'GetRunCheckpoint', { export_id: job.exportId, run_id: job.runId });
  process.send?.({ ready: true });
  await go;
  const startedAt = Date.now();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stages: Stages = { stream: 0, append: 0, encode: 0, upload: 0 };
  const outcome = await exportPartition(timed(stages, deps), { exportId: job.exportId, runId: job.runId }, { fileMaxBytes: job.fileMaxBytes, fileMaxRows: 10_000_000 });
  const seconds = (performance.now() - started) / 1000;
  const endedAt = Date.now();
  const used = process.cpuUsage(cpu);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  await parquet.close();
  const rows = 'rows' in outcome ? outcome.rows : 0;
  const result = {
    status: outcome.status,
    rows,
    seconds,
    startedAt,
    endedAt,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMb,
    referenceRowsPerSecond: job.reference && rows ? await referenceCopy(job, rows) : undefined,
    streamOnlyRowsPerSecond: job.reference ? await streamOnly(deps.runs, checkpoint.spec as RunSpec__Output) : undefined,
    stages,
  };
  tracing.close();
  progress.close();
  return result;
}

process.once('message', (job: WorkerJob) => {
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  run(job, go).then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (err: unknown) => process.send?.({ error: err instanceof Error ? err.stack : String(err) }, () => process.exit(1)),
  );
});
