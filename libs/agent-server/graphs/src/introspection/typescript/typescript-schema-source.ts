import type { Logger } from '@platform/logging';
import type { GraphSchema } from '../graph-schema';
import { SchemaCache } from './schema-cache';
import { extractInWorker, SchemaExtractionTimeout } from './schema-extraction.runner';
import type { GraphSourceSpec } from './typescript-graph-schemas';

export interface TypeScriptSchemaSourceOptions {
  /** Where extracted schemas are kept across restarts and replicas (none: only in memory). */
  cacheDir?: string;
  /** How long one extraction may take (the reference's default: 30 s). */
  timeoutMs?: number;
  /** Where bare imports the project cannot resolve are looked up (the platform's node_modules). */
  fallbackNodeModules?: string;
  logger?: Logger;
}

/** Schemas read from graphs' TypeScript sources, by graph id; each graph is extracted at most once per process. */
export interface TypeScriptSchemaSource {
  /** Graph name (the export's, `name|node` for subgraphs) → schemas. Rejects when the source cannot be read. */
  schemas(graphId: string, spec: GraphSourceSpec): Promise<Record<string, GraphSchema>>;
}

export function createTypeScriptSchemaSource(options: TypeScriptSchemaSourceOptions = {}): TypeScriptSchemaSource {
  const cache = options.cacheDir ? new SchemaCache(options.cacheDir) : undefined;
  const extracted = new Map<string, Promise<Record<string, GraphSchema>>>();

  const extract = async (graphId: string, spec: GraphSourceSpec): Promise<Record<string, GraphSchema>> => {
    const cached = cache?.read(spec);
    if (cached) return cached;
    const started = Date.now();
    const { schemas, files, diagnostics } = await extractInWorker(spec, {
      timeoutMs: options.timeoutMs ?? 30_000,
      fallbackNodeModules: options.fallbackNodeModules,
    });
    options.logger?.info({ graph_id: graphId, ms: Date.now() - started, diagnostics }, 'graph schemas extracted from TypeScript');
    try {
      cache?.write(spec, files, schemas);
    } catch (err) {
      options.logger?.warn({ err, graph_id: graphId }, 'graph schemas: cannot write the cache (kept in memory)');
    }
    return schemas;
  };

  return {
    schemas(graphId, spec) {
      let found = extracted.get(graphId);
      if (!found) {
        // A failure is remembered too (the same sources fail the same way again), except running out of time.
        found = extract(graphId, spec).catch((err: unknown) => {
          options.logger?.warn({ err, graph_id: graphId }, 'graph schemas: cannot extract them from TypeScript');
          if (err instanceof SchemaExtractionTimeout) extracted.delete(graphId);
          throw err;
        });
        extracted.set(graphId, found);
      }
      return found;
    },
  };
}
