// Parquet writer micro-benchmark for the export worker: the same StreamRuns-shaped rows (all 29 exportable fields,
// 1–2 KB inputs and outputs) written by each candidate writer, one child process per run, medians of --reps.
//   npx tsx tools/bench/export/writers.ts [--rows=100000] [--file-rows=50000] [--codecs=snappy,zstandard]
//                                         [--writers=parquetjs-lite,hyparquet-writer,duckdb-appender,duckdb-ndjson]
//                                         [--reps=3] [--threads=2] [--batch-size=1000] [--pool=10000]
// rows/s and MB/s are writer-only (rows are pre-generated); MB/s counts the rows' JSON bytes; "rows/CPU-s" divides
// by the process's CPU time (DuckDB's threads included), the fair measure on a shared machine. Every file is read
// back with DuckDB and its row count checked.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Compression } from '@platform/export-parquet';
import { intOption, option } from '../options';
import { WRITER_CODECS, WRITERS, type WriterName } from './candidate-writers';
import type { WriterJob, WriterResult } from './writer-run';

function runChild(job: WriterJob, dir: string): Promise<{ result: WriterResult; dir: string }> {
  // fork reuses this process's execArgv, i.e. tsx's loader.
  const child = fork(path.join(__dirname, 'writer-run.ts'), { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (reply: { result?: WriterResult; dir?: string; error?: string }) =>
      reply.result && reply.dir ? resolve({ result: reply.result, dir: reply.dir }) : reject(new Error(reply.error)),
    );
    child.once('exit', (code) => code !== 0 && reject(new Error(`${job.writer} exited with ${code}`)));
    child.send({ job, dir });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const rows = intOption('rows', 100_000);
  const base: Omit<WriterJob, 'writer' | 'compression'> = {
    rows,
    fileRows: intOption('file-rows', 50_000),
    batchSize: intOption('batch-size', 1_000),
    poolSize: Math.min(rows, intOption('pool', 10_000)),
    threads: intOption('threads', 2),
  };
  const reps = intOption('reps', 3);
  const codecs = option('codecs', 'snappy,zstandard').split(',') as Compression[];
  const writers = option('writers', WRITERS.join(',')).split(',') as WriterName[];
  for (const w of writers) if (!WRITERS.includes(w)) throw new Error(`unknown writer ${w}; one of ${WRITERS.join(', ')}`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'writers-bench-'));
  process.once('SIGINT', () => {
    rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });

  console.log(
    `Parquet writers: ${fmt(rows)} rows (29 fields), files of ${fmt(base.fileRows)} rows, batches of ${base.batchSize}, ` +
      `${reps} run(s) each, median shown; ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  const header = ['writer', 'codec', 'rows/s', 'MB/s', 'rows/CPU-s', 'file MB', 'peak RSS MB', 'base RSS MB'];
  const table: string[][] = [];
  try {
    for (const compression of codecs) {
      for (const writer of writers) {
        if (!WRITER_CODECS[writer].includes(compression)) {
          table.push([writer, compression, 'n/a', '', '', '', '', '']);
          continue;
        }
        const results: WriterResult[] = [];
        for (let rep = 0; rep < reps; rep++) {
          const { result, dir } = await runChild({ ...base, writer, compression }, scratch);
          rmSync(dir, { recursive: true, force: true });
          if (result.readRows !== result.rows) throw new Error(`${writer}/${compression}: files hold ${result.readRows} rows, ${result.rows} written`);
          results.push(result);
        }
        const m = (f: (r: WriterResult) => number) => median(results.map(f));
        const row = [
          writer,
          compression,
          fmt(m((r) => r.rows / r.seconds)),
          fmt(m((r) => r.inputBytes / 1e6 / r.seconds), 1),
          fmt(m((r) => r.rows / r.cpuSeconds)),
          fmt(m((r) => r.fileBytes / 1e6), 1),
          fmt(m((r) => r.peakRssMb)),
          fmt(m((r) => r.baseRssMb)),
        ];
        table.push(row);
        console.log(`  done: ${row.join('  ')}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${line(header)}\n|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of table) console.log(line(r));
  console.log(`load at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
