import { existsSync } from 'node:fs';
import Module, { createRequire, register as registerEsmHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '@platform/errors';
import type { GraphSpec } from './graph-spec';
import { nearestTsconfig, tsconfigPathsMatcher, type PathsMatcher } from './tsconfig-paths';

// A deployment is a cloned repository that may have no node_modules of its own: the packages the platform
// already ships (@langchain/langgraph, @langchain/core, zod, ...) then come from the platform's node_modules,
// the directory holding tsx (not @langchain/langgraph: that may resolve to the deployment's own copy).
export function platformNodeModules(): string {
  return path.resolve(path.dirname(require.resolve('tsx/package.json')), '..');
}

// ESM resolution ignores NODE_PATH: this hook retries a bare specifier the deployment cannot resolve from the
// platform's node_modules. Only graph modules that must load as ESM (top-level await) go through it.
const ESM_FALLBACK_RESOLVER = `
let fallbackParent;
export function initialize(data) { fallbackParent = data.fallbackParent; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const bare = !/^(\\.|\\/|#|[a-zA-Z][a-zA-Z\\d+.-]*:)/.test(specifier);
    if (!bare || error?.code !== 'ERR_MODULE_NOT_FOUND' || !fallbackParent) throw error;
    return next(specifier, { ...context, parentURL: fallbackParent });
  }
}`;

type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, isMain: boolean, options?: unknown) => string;

interface NodeModuleInternals {
  _initPaths?: () => void;
  _resolveFilename: ResolveFilename;
}

// The folders of the projects this process loaded (langgraph.json's folder): only their own files resolve through
// their tsconfig's `paths`, so a project's aliases never reach the platform's modules or the packages it uses.
const projectDirs = new Set<string>();
// Folder → the matcher of its nearest tsconfig.json (null: no tsconfig, or one without `paths`).
const matchers = new Map<string, PathsMatcher | null>();

function pathsMatcherFor(file: string): PathsMatcher | null {
  const dir = path.dirname(file);
  let matcher = matchers.get(dir);
  if (matcher === undefined) {
    const tsconfig = nearestTsconfig(dir);
    matcher = (tsconfig && tsconfigPathsMatcher(tsconfig)) || null;
    matchers.set(dir, matcher);
  }
  return matcher;
}

const inProject = (file: string) =>
  !file.split(path.sep).includes('node_modules') && [...projectDirs].some((dir) => file === dir || file.startsWith(dir + path.sep));

// tsx reads one tsconfig per process (the platform's own, when it runs under tsx): a project's `paths` (`@/…`) are
// resolved here, before Node's (and tsx's) resolution, for the project's own files, as the project's tsc does.
function resolveProjectPaths(internals: NodeModuleInternals): void {
  const resolve = internals._resolveFilename;
  internals._resolveFilename = function resolveFilename(request, parent, isMain, options) {
    const from = parent?.filename;
    const bare = !request.startsWith('.') && !path.isAbsolute(request) && !request.startsWith('node:');
    const candidates = bare && from && inProject(from) ? pathsMatcherFor(from)?.(request) : undefined;
    for (const candidate of candidates ?? []) {
      try {
        return resolve.call(this, candidate, parent, isMain, options);
      } catch (err) {
        if (errorCode(err) !== 'MODULE_NOT_FOUND') throw err;
      }
    }
    return resolve.call(this, request, parent, isMain, options);
  };
}

let commonJsReady: Promise<void> | undefined;
let esmReady = false;

async function registerCommonJs(): Promise<void> {
  const internals = Module as unknown as NodeModuleInternals;
  const initPaths = internals._initPaths;
  // Only Node's own loader has _initPaths. A test runner's stand-in for `node:module` (Jest's) compiles
  // TypeScript and resolves packages itself, and must not get tsx's hooks.
  if (typeof initPaths !== 'function') return;
  const fallback = platformNodeModules();
  const paths = (process.env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean);
  if (!paths.includes(fallback)) {
    // NODE_PATH is CommonJS' documented last-resort lookup; _initPaths re-reads it after start-up.
    process.env.NODE_PATH = [...paths, fallback].join(path.delimiter);
    initPaths.call(Module);
  }
  // tsx's CommonJS hooks compile .ts/.mts/.cts and ESM-syntax .js on require, so one loader serves both module
  // styles and a graph shares this server's instance of @langchain/langgraph. (Loaded here, not at the top:
  // only loading a project needs it.)
  const { register } = await import('tsx/cjs/api');
  register();
  resolveProjectPaths(internals);
}

function prepareEsm(): void {
  if (esmReady) return;
  esmReady = true;
  const fallbackParent = pathToFileURL(path.join(platformNodeModules(), '..', 'index.js')).href;
  registerEsmHooks(`data:text/javascript,${encodeURIComponent(ESM_FALLBACK_RESOLVER)}`, { data: { fallbackParent } });
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}

/**
 * Imports a graph module (TypeScript or JavaScript, CommonJS or ESM syntax) by absolute path; the files of
 * `projectDir` resolve their nearest tsconfig's `paths`. Modules that cannot be required (top-level await) are
 * imported as ESM instead.
 */
export async function importGraphModule(file: string, projectDir = path.dirname(file)): Promise<Record<string, unknown>> {
  projectDirs.add(path.resolve(projectDir));
  commonJsReady ??= registerCommonJs();
  await commonJsReady;
  try {
    return createRequire(file)(file) as Record<string, unknown>;
  } catch (err) {
    const code = errorCode(err);
    if (code !== 'ERR_REQUIRE_ASYNC_MODULE' && code !== 'ERR_REQUIRE_ESM') throw err;
  }
  prepareEsm();
  const { tsImport } = await import('tsx/esm/api');
  // tsx's ESM loader takes the project's tsconfig (its `paths` included) for this import.
  const tsconfig = nearestTsconfig(path.dirname(file));
  return (await tsImport(pathToFileURL(file).href, { parentURL: __filename, ...(tsconfig ? { tsconfig } : {}) })) as Record<string, unknown>;
}

/**
 * The export a `file:export` spec of langgraph.json names (file relative to `dir`; `default`, or the module itself
 * when it has no default). An InputError starting with `subject` says what is missing or failed to load.
 */
export async function importExport(spec: Pick<GraphSpec, 'file' | 'exportName'>, dir: string, subject: string): Promise<unknown> {
  const file = path.resolve(dir, spec.file);
  if (!existsSync(file)) throw new InputError(`${subject}: file ${spec.file} not found`);
  let mod: Record<string, unknown>;
  try {
    mod = await importGraphModule(file, dir);
  } catch (err) {
    throw new InputError(`${subject}: cannot load ${spec.file}: ${(err as Error).message}`, { cause: err });
  }
  // A CommonJS module assigned to module.exports has no `default`: the module itself is the default export.
  const value = spec.exportName === 'default' && !('default' in mod) ? mod : mod[spec.exportName];
  if (value === undefined) {
    const available = Object.keys(mod).join(', ') || 'none';
    throw new InputError(`${subject}: ${spec.file} has no export '${spec.exportName}' (exports: ${available})`);
  }
  return value;
}
