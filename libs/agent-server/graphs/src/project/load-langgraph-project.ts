import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { InputError } from '@platform/errors';
import type { GraphDefinition, GraphExport } from '../graph-registry';
import { importExport } from './graph-module-loader';
import { parseGraphSpec, type GraphSpec } from './graph-spec';
import { graphDefaultsSchema, langGraphConfigSchema, type HttpConfig, type LangGraphConfig } from './langgraph-config.schema';
import { applyProjectEnv, readProjectEnv } from './project-env';

/** Config and context a graph's system assistant starts with. */
export interface GraphDefaults {
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

/** `auth` of langgraph.json: the module of the deployment's own authentication (`./src/auth.ts:auth`). */
export interface ProjectAuthConfig {
  path: string;
}

/** A deployment's `langgraph.json` with its graphs imported. */
export interface LangGraphProject {
  configPath: string;
  /** The directory of `langgraph.json`; graph paths are relative to it. */
  dir: string;
  /** graph id → definition, in `langgraph.json` order. */
  graphs: Record<string, GraphDefinition>;
  /** The project's own variables (from `env`), as applied to `process.env`. */
  env: Record<string, string>;
  /** Per-graph defaults for system assistants (`LANGGRAPH_CONFIG`). */
  defaults: Record<string, GraphDefaults>;
  /** The `store` section (`{index, ttl}`), unparsed: the store reads it. */
  store?: unknown;
  /** The `auth` section when it names a module (loaded by the server before it serves anything). */
  auth?: ProjectAuthConfig;
  /** The `http` section (the project's HTTP app, `disable_*`, `cors`, ...); `{}` when absent. */
  http: HttpConfig;
  /** `ui`: graph id → the absolute path of its components module, and `ui_config.shared` (packages the host shares). */
  ui: { entries: Record<string, string>; shared: string[] };
  /** Things worth logging that did not stop the load. */
  warnings: string[];
  /** The env file langgraph.json names, when missing (see missingEnvFileNote). */
  missingEnvFile?: string;
}

export interface LoadLangGraphProjectOptions {
  /**
   * The platform's `LANGGRAPH_CONFIG` (JSON `{graph_id: {...config, context}}`); it wins over a
   * `LANGGRAPH_CONFIG` the project sets in its own `env`.
   */
  langgraphConfig?: string;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function readConfig(configPath: string): LangGraphConfig {
  if (!existsSync(configPath)) throw new InputError(`langgraph.json not found at ${configPath}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (err) {
    throw new InputError(`langgraph.json is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = langGraphConfigSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`langgraph.json is invalid: ${issuesText(parsed.error)}`);
  return parsed.data;
}

function parseDefaults(text: string | undefined): Record<string, GraphDefaults> {
  if (!text?.trim()) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InputError(`LANGGRAPH_CONFIG is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = graphDefaultsSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`LANGGRAPH_CONFIG is invalid: ${issuesText(parsed.error)}`);
  return Object.fromEntries(
    Object.entries(parsed.data).map(([graphId, { context, ...config }]) => {
      const defaults: GraphDefaults = { config };
      if (context !== undefined && context !== null) {
        if (typeof context !== 'object' || Array.isArray(context)) {
          throw new InputError(`LANGGRAPH_CONFIG is invalid: ${graphId}.context must be an object`);
        }
        defaults.context = context as Record<string, unknown>;
      }
      return [graphId, defaults];
    }),
  );
}

function looksLikeGraphExport(value: unknown): value is GraphExport {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.then === 'function' || typeof candidate.compile === 'function' || typeof candidate.invoke === 'function';
}

async function loadGraph(graphId: string, spec: GraphSpec, dir: string): Promise<GraphExport> {
  const value = await importExport(spec, dir, `Graph '${graphId}'`);
  if (!looksLikeGraphExport(value)) {
    throw new InputError(
      `Graph '${graphId}': export '${spec.exportName}' of ${spec.file} is not a graph, a graph builder, a Promise or a factory`,
    );
  }
  return value;
}

/**
 * Reads a deployment's `langgraph.json`, applies its `env` to `process.env` and imports every graph it names.
 * Any problem with the configuration or a graph module is an InputError naming it (a failed build).
 */
export async function loadLangGraphProject(configPath: string, options: LoadLangGraphProjectOptions = {}): Promise<LangGraphProject> {
  const absolute = path.resolve(configPath);
  const dir = path.dirname(absolute);
  const config = readConfig(absolute);
  const { env, warnings, missingEnvFile } = readProjectEnv(config, dir);
  const defaults = parseDefaults(options.langgraphConfig ?? env.LANGGRAPH_CONFIG);
  applyProjectEnv(env);

  const graphs: Record<string, GraphDefinition> = {};
  for (const [graphId, entry] of Object.entries(config.graphs)) {
    const spec = parseGraphSpec(entry);
    const source = await loadGraph(graphId, spec, dir);
    graphs[graphId] = { source, description: spec.description, sourceFile: path.resolve(dir, spec.file), exportName: spec.exportName };
  }
  for (const graphId of Object.keys(defaults)) {
    if (!graphs[graphId]) warnings.push(`LANGGRAPH_CONFIG names graph '${graphId}', which langgraph.json does not define`);
  }
  const auth = config.auth?.path ? { path: config.auth.path } : undefined;
  const ui = {
    entries: Object.fromEntries(Object.entries(config.ui ?? {}).map(([graphId, file]) => [graphId, path.resolve(dir, file)])),
    shared: config.ui_config?.shared ?? [],
  };
  return { configPath: absolute, dir, graphs, env, defaults, store: config.store, auth, http: config.http ?? {}, ui, warnings, missingEnvFile };
}
