import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GraphSourceSpec, TypeScriptGraphSchemas } from './typescript-graph-schemas';

const WORKER = 'schema-extraction.worker';

/** The extraction ran out of time (on a busy machine it may succeed later). */
export class SchemaExtractionTimeout extends Error {}

// Bundled, the worker is a sibling of the server's bundle (an extra entry point of the agent server's build); from
// source (tests, tsx) it is the .ts file beside this one, loaded through tsx.
function workerSource(): string {
  const bundled = ['.cjs', '.js'].map((ext) => path.join(__dirname, `${WORKER}${ext}`)).find((file) => existsSync(file));
  if (bundled) return `require(${JSON.stringify(bundled)});`;
  const source = path.join(__dirname, `${WORKER}.ts`);
  return `require('tsx/cjs/api').register(); require(${JSON.stringify(source)});`;
}

/**
 * Runs the TypeScript extraction of graphs in a worker thread (it takes seconds and hundreds of MB), giving up after
 * `timeoutMs`.
 */
export function extractInWorker(specs: GraphSourceSpec[], options: { timeoutMs: number; fallbackNodeModules?: string }): Promise<TypeScriptGraphSchemas> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerSource(), { eval: true, workerData: { specs, fallbackNodeModules: options.fallbackNodeModules } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new SchemaExtractionTimeout(`schema extraction timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (message: { result?: TypeScriptGraphSchemas; error?: string }) => {
      settle();
      if (message.result) resolve(message.result);
      else reject(new Error(message.error ?? 'schema extraction failed'));
    });
    worker.once('error', (err) => {
      settle();
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`schema extraction worker exited with code ${code}`));
    });
  });
}
