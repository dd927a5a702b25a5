// Worker thread entry: extracts graphs' schemas with the TypeScript compiler, off the server's event loop.
// Imports only relative modules and packages, so it also runs from source under tsx (see schema-extraction.runner.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { extractTypeScriptGraphSchemas, type GraphSourceSpec } from './typescript-graph-schemas';

const { specs, fallbackNodeModules } = workerData as { specs: GraphSourceSpec[]; fallbackNodeModules?: string };
try {
  parentPort?.postMessage({ result: extractTypeScriptGraphSchemas(specs, { fallbackNodeModules }) });
} catch (err) {
  parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
