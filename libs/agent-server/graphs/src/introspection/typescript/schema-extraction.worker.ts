// Worker thread entry: extracts one graph's schemas with the TypeScript compiler, off the server's event loop.
// Imports only relative modules and packages, so it also runs from source under tsx (see schema-extraction.runner.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { extractTypeScriptGraphSchemas, type GraphSourceSpec } from './typescript-graph-schemas';

const { spec, fallbackNodeModules } = workerData as { spec: GraphSourceSpec; fallbackNodeModules?: string };
try {
  parentPort?.postMessage({ result: extractTypeScriptGraphSchemas(spec, { fallbackNodeModules }) });
} catch (err) {
  parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
