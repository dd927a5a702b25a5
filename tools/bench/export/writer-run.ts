// One measured writer run, in a process of its own so peak RSS and CPU time are this writer's alone.
// Driven over IPC by writers.ts: receives a WriterJob, answers a WriterResult.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { runParquetColumns, type Compression, type ParquetFileWriter } from '@platform/export-parquet';
import { makeRunPool, runBatches } from './bench-rows';
import { writerFactory, type WriterName } from './candidate-writers';

export interface WriterJob {
  writer: WriterName;
  compression: Compression;
  rows: number;
  fileRows: number;
  batchSize: number;
  poolSize: number;
  threads: number;
}

export interface WriterResult {
  rows: number;
  /** Rows the written files hold, read back with DuckDB. */
  readRows: number;
  /** Bytes of the rows as JSON (the uncompressed input measure). */
  inputBytes: number;
  fileBytes: number;
  files: string[];
  seconds: number;
  /** User + system CPU seconds of the whole process while writing (DuckDB's threads included). */
  cpuSeconds: number;
  /** Peak resident set of the process, MB. */
  peakRssMb: number;
  /** Resident set before writing (the row pool and the loaded modules), MB. */
  baseRssMb: number;
}

async function countRows(files: string[]): Promise<number> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const list = files.map((f) => `'${f}'`).join(', ');
    const reader = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet([${list}])`);
    return reader.getRowObjects()[0].n as number;
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

async function run(job: WriterJob, keepDir: string): Promise<WriterResult> {
  const pool = makeRunPool(job.poolSize);
  const rowBytes = pool.map((row) => Buffer.byteLength(JSON.stringify(row)));
  const factory = await writerFactory(job.writer, keepDir, job.threads);
  const columns = runParquetColumns([], 'v2_beta');
  const baseRssMb = process.memoryUsage().rss / 1e6;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let writer: ParquetFileWriter | undefined;
  let inputBytes = 0;
  let fileBytes = 0;
  let done = 0;
  const files: string[] = [];
  for (const batch of runBatches(pool, job.rows, job.batchSize)) {
    writer ??= await factory.open({ columns, compression: job.compression });
    await writer.append(batch);
    for (let i = 0; i < batch.length; i++) inputBytes += rowBytes[(done + i) % pool.length];
    done += batch.length;
    if (writer.rows >= job.fileRows) {
      const file = await writer.finish();
      fileBytes += file.bytes;
      files.push(file.path);
      writer = undefined;
    }
  }
  if (writer) {
    const file = await writer.finish();
    fileBytes += file.bytes;
    files.push(file.path);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  // Read back before the factory removes its files.
  const readRows = await countRows(files);
  await factory.close();
  return {
    rows: done,
    readRows,
    inputBytes,
    fileBytes,
    files,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMb,
    baseRssMb,
  };
}

process.once('message', (message: { job: WriterJob; dir: string }) => {
  const dir = mkdtempSync(join(message.dir ?? tmpdir(), 'run-'));
  run(message.job, dir).then(
    (result) => process.send?.({ result, dir }, () => process.exit(0)),
    (err: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      process.send?.({ error: err instanceof Error ? err.stack : String(err) }, () => process.exit(1));
    },
  );
});
