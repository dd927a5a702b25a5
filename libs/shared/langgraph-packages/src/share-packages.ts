import { realpathSync } from 'node:fs';
import Module, { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SharedPackage } from './deployment-packages';

type ResolveFilename = (request: string, parent: Module | undefined, isMain: boolean, options?: { paths?: string[] }) => string;

interface ModuleInternals {
  _resolveFilename: ResolveFilename;
  _nodeModulePaths(dir: string): string[];
}

const internals = Module as unknown as ModuleInternals;

// ESM side, for graph modules that load as ESM (top-level await) and for `import` from the platform's code: a shared
// package resolves to its CommonJS build, which require() loads too, so both module systems get one instance of
// it; and from outside the deployment to the deployment's copy, as the CommonJS redirect below does.
const ESM_RESOLVE = `
let projectUrl = '';
let names = [];
let anchors = {};
export function initialize(data) { ({ projectUrl, names, anchors } = data); }
export async function resolve(specifier, context, next) {
  const name = names.find((n) => specifier === n || specifier.startsWith(n + '/'));
  if (!name) return next(specifier, context);
  const outside = !(context.parentURL ?? '').startsWith(projectUrl);
  const parentURL = outside && anchors[name] ? anchors[name] : context.parentURL;
  const conditions = [...(context.conditions ?? []).filter((c) => c !== 'import'), 'require'];
  try {
    return await next(specifier, { ...context, parentURL, conditions });
  } catch {
    return next(specifier, { ...context, parentURL });
  }
}`;

/** The directory whose `node_modules` holds the package where the lookup found it. */
function anchorDir(pkg: SharedPackage): string {
  const depth = pkg.name.split('/').length + 1;
  return path.resolve(pkg.location, ...Array<string>(depth).fill('..'));
}

function inside(dir: string, file: string | undefined | null): boolean {
  return Boolean(file) && !path.relative(dir, file as string).startsWith('..');
}

/** `@langchain/core/messages` → `@langchain/core` when that is one of `names`. */
function packageOf(request: string, names: string[]): string | undefined {
  return names.find((name) => request === name || request.startsWith(`${name}/`));
}

let shared = false;

/**
 * Makes the platform's code (this server and the packages it loads) use the deployment's copy of each package
 * whose origin is 'project', for `require` and `import` alike: a request for one of them from a module outside
 * `projectDir` resolves as if made from where the deployment's modules find it; modules inside `projectDir`
 * resolve as usual. `import` of any shared package gets its CommonJS build. Call once, before anything loads
 * those packages; throws if something already loaded one from elsewhere.
 */
export function shareDeploymentPackages(projectDir: string, packages: SharedPackage[]): void {
  if (shared) throw new Error("The deployment's packages are already shared");
  shared = true;
  const root = realpathSync(projectDir);
  const own = packages.filter((p) => p.origin === 'project');
  const names = own.map((p) => p.name);
  const loadedEarly = Object.keys(require.cache).filter((file) => {
    const name = packageOf(file.split(`${path.sep}node_modules${path.sep}`).at(-1) ?? '', names);
    return name && !inside(own.find((p) => p.name === name)?.dir as string, file);
  });
  if (loadedEarly.length) throw new Error(`Shared packages were loaded before the deployment's copies were chosen: ${loadedEarly[0]}`);

  if (own.length) redirectRequire(root, own);
  register(`data:text/javascript,${encodeURIComponent(ESM_RESOLVE)}`, {
    data: {
      projectUrl: `${pathToFileURL(root).href}/`,
      names: packages.map((p) => p.name),
      anchors: Object.fromEntries(own.map((p) => [p.name, pathToFileURL(path.join(anchorDir(p), '[deployment]')).href])),
    },
  });
}

function redirectRequire(root: string, own: SharedPackage[]): void {
  const names = own.map((p) => p.name);
  const parents = new Map(
    own.map((p) => {
      const dir = anchorDir(p);
      const parent = new Module(path.join(dir, '[deployment]'));
      parent.filename = parent.id;
      parent.paths = internals._nodeModulePaths(dir);
      return [p.name, parent] as const;
    }),
  );
  const resolveFilename = internals._resolveFilename;
  internals._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    const name = options?.paths || inside(root, parent?.filename) ? undefined : packageOf(request, names);
    return resolveFilename.call(this, request, name ? parents.get(name) : parent, isMain, options);
  };
}
