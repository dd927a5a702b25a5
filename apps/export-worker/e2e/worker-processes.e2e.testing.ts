// Export workers as real OS processes (so they can be SIGKILLed and their memory measured), each on its own
// HTTP port and temp directory, all consuming one partition queue of the caller's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportPartitionQueue } from '@platform/contracts';
import { createJobBus, defineQueue, type JetStreamJobBus } from '@platform/job-bus';
import { freePort } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { TEST_EGRESS_ENV } from '@platform/export-s3/testing';
import { processCpuSeconds } from '@platform/testing';

const ROOT = path.resolve(__dirname, '../../..');
const ENTRY = path.join(__dirname, 'export-worker.process.ts');

export type PartitionQueue = typeof exportPartitionQueue;

/** A partition queue (stream and subject) no other test or run shares. */
export function uniquePartitionQueue(label: string): PartitionQueue {
  const id = randomBytes(4).toString('hex');
  return defineQueue({ name: `${label}-${id}`, subject: `test.${label}.${id}`, schema: exportPartitionQueue.schema });
}

/** Deletes a queue of `uniquePartitionQueue` (its stream) from the shared NATS, if the test ran on one. */
export async function deletePartitionQueue(queue: PartitionQueue): Promise<void> {
  if (!process.env.NATS_URL) return;
  const bus = await createJobBus({ natsUrl: process.env.NATS_URL, logger: silentLogger });
  await (bus as JetStreamJobBus).deleteQueue(queue).catch(() => undefined);
  await bus.close();
}

export interface WorkerProcess {
  readonly index: number;
  readonly child: ChildProcess;
  readonly pid: number;
  /** EXPORT_WORKER_TMP_DIR: staged rows and Parquet files live here while a partition is in progress. */
  readonly tmpDir: string;
  readonly url: string;
  /** Whether a Parquet file is open (rows staged or being encoded): the worker is inside a partition. */
  hasOpenFile(): boolean;
  /** Peak resident set of the process so far (VmHWM), MB; undefined once it has exited or off Linux. */
  peakRssMb(): number | undefined;
  /** User + system CPU seconds of the process so far (all its threads); 0 once it has exited or off Linux. */
  cpuSeconds(): number;
  /** Sends the signal; resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  exited(): boolean;
}

export interface WorkerProcessOptions {
  queue: PartitionQueue;
  natsUrl: string;
  tracingGrpc: string;
  exportGrpc: string;
  internalSecret: string;
  /** EXPORT_WORKER_TMP_DIR, shared by workers as a volume is; default a directory of the worker's own. */
  tmpDir?: string;
  /** Extra EXPORT_WORKER_* variables. */
  env?: Record<string, string>;
  /** Worker output: 'inherit' shows its logs (LOG_LEVEL in env), default 'ignore'. */
  stdio?: 'inherit' | 'ignore';
  /** Extra node options before the entry point (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`export worker exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    const ok = await fetch(`${url}/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`export worker at ${url} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts one worker process (`node --import tsx export-worker.process.ts`) and waits until it consumes. */
export async function startWorkerProcess(index: number, options: WorkerProcessOptions, readyTimeoutMs = 60_000): Promise<WorkerProcess> {
  const port = await freePort('127.0.0.1');
  const tmpDir = options.tmpDir ?? mkdtempSync(path.join(tmpdir(), `export-worker-${index}-`));
  // `node --import tsx` runs the worker in this one process (the tsx CLI would add a launcher process), so the
  // pid is the worker's own: SIGKILL hits it and /proc/<pid> is its memory.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      INTERNAL_SECRET: options.internalSecret,
      NATS_URL: options.natsUrl,
      TRACING_GRPC: options.tracingGrpc,
      EXPORT_GRPC: options.exportGrpc,
      EXPORT_WORKER_TMP_DIR: tmpDir,
      EXPORT_PARTITION_QUEUE_NAME: options.queue.name,
      EXPORT_PARTITION_QUEUE_SUBJECT: options.queue.subject,
      // The SDK's notice that its 2027 releases need Node 22, printed once per process: noise in test output.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // s3rver listens on 127.0.0.1, which only the operator's allowlist opens.
      ...TEST_EGRESS_ENV,
      ...options.env,
    },
    stdio: ['ignore', options.stdio ?? 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const worker: WorkerProcess = {
    index,
    child,
    pid: child.pid as number,
    tmpDir,
    url,
    hasOpenFile: () => {
      try {
        return readdirSync(tmpDir, { recursive: true, encoding: 'utf8' }).some((f) => /(^|\/)file-[^/]+$/.test(f));
      } catch {
        return false;
      }
    },
    peakRssMb: () => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kb ? Number(kb) / 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    cpuSeconds: () => processCpuSeconds(child.pid),
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
  };
  try {
    await waitUntilReady(url, child, readyTimeoutMs);
  } catch (err) {
    await worker.kill('SIGKILL');
    rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  }
  return worker;
}

/** Stops workers gracefully (SIGTERM hands in-flight jobs back), SIGKILL after `graceMs`, and removes their temp dirs. */
export async function stopWorkerProcesses(workers: readonly WorkerProcess[], graceMs = 10_000): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      const timer = setTimeout(() => void w.kill('SIGKILL'), graceMs);
      await w.kill('SIGTERM');
      clearTimeout(timer);
      rmSync(w.tmpDir, { recursive: true, force: true });
    }),
  );
}
