import type { Logger } from '@platform/logging';
import type { GraphSchema } from '../graph-schema';
import { SchemaCache } from './schema-cache';
import { extractInWorker, SchemaExtractionTimeout } from './schema-extraction.runner';
import type { GraphSourceSpec, GraphTypeSchemas } from './typescript-graph-schemas';

export interface TypeScriptSchemaSourceOptions {
  /** graph id → where it is exported; graphs without a source (none given) have no TypeScript schemas. */
  graphs: Record<string, { sourceFile?: string; exportName?: string }>;
  /** Where extracted schemas are kept across restarts and replicas (none: only in memory). */
  cacheDir?: string;
  /** The project's folder: the cache names files under it relative to it, so a new revision's copy reuses its entry. */
  projectDir?: string;
  /** How long the extraction may take (default 30 s, the reference's). */
  timeoutMs?: number;
  /** Where bare imports the project cannot resolve are looked up (the platform's node_modules). */
  fallbackNodeModules?: string;
  logger?: Logger;
}

/** Schemas read from the graphs' TypeScript sources, all graphs at once, at most once per process. */
export interface TypeScriptSchemaSource {
  /** Graph name (the export's, `name|node` for subgraphs) → schemas. Rejects when the graph's types cannot be read. */
  schemas(graphId: string): Promise<Record<string, GraphSchema>>;
}

export function createTypeScriptSchemaSource(options: TypeScriptSchemaSourceOptions): TypeScriptSchemaSource {
  const specs: Record<string, GraphSourceSpec> = {};
  for (const [graphId, { sourceFile, exportName }] of Object.entries(options.graphs)) {
    if (sourceFile && exportName) specs[graphId] = { sourceFile, exportName };
  }
  const cache = options.cacheDir ? new SchemaCache(options.cacheDir, options.projectDir) : undefined;
  let extracted: Promise<Record<string, GraphTypeSchemas>> | undefined;

  // One program for every graph: the compiler's cost is mostly LangGraph's and LangChain's declarations, shared.
  const extract = async (): Promise<Record<string, GraphTypeSchemas>> => {
    const cached = cache?.read(specs);
    if (cached) return cached;
    const started = Date.now();
    const ids = Object.keys(specs);
    const { graphs, files, diagnostics } = await extractInWorker(Object.values(specs), {
      timeoutMs: options.timeoutMs ?? 30_000,
      fallbackNodeModules: options.fallbackNodeModules,
    });
    const byId = Object.fromEntries(ids.map((graphId, index) => [graphId, graphs[index]]));
    const errors = Object.fromEntries(Object.entries(byId).flatMap(([graphId, found]) => (found.error ? [[graphId, found.error]] : [])));
    options.logger?.info({ graphs: ids, ms: Date.now() - started, errors, diagnostics }, 'graph schemas extracted from TypeScript');
    try {
      cache?.write(specs, files, byId);
    } catch (err) {
      options.logger?.warn({ err }, 'graph schemas: cannot write the cache (kept in memory)');
    }
    return byId;
  };

  return {
    async schemas(graphId) {
      if (!specs[graphId]) throw new Error(`Graph "${graphId}" has no source file to read its types from`);
      // A failure is remembered too (the same sources fail the same way again), except running out of time.
      extracted ??= extract().catch((err: unknown) => {
        options.logger?.warn({ err }, 'graph schemas: cannot extract them from TypeScript');
        if (err instanceof SchemaExtractionTimeout) extracted = undefined;
        throw err;
      });
      const found = (await extracted)[graphId];
      if (!found?.schemas) throw new Error(`Graph "${graphId}": ${found?.error ?? 'no schemas'}`);
      return found.schemas;
    },
  };
}
