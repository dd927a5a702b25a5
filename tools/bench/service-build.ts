// How the benchmarks run a service: as it is deployed, the production bundle `dist/apps/<app>/main.cjs` that the
// Dockerfile starts (built here by Nx, which reuses an unchanged build), or from its source through tsx (`--source`),
// as `npm start` and the tests run it. tsx compiles with esbuild's `keepNames`: every function created while a
// request is served also gets its name defined on it (esbuild's `__name` helper, an `Object.defineProperty` per
// closure), which the deployed bundle never does. A figure taken from source therefore overstates what a deployed
// service costs per request; the benchmarks measure the bundle unless told otherwise.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export type ServiceMode = 'built' | 'source';

/** `--source`: run the services from source (tsx); otherwise from their production bundles. */
export function serviceMode(argv: readonly string[] = process.argv): ServiceMode {
  return argv.includes('--source') ? 'source' : 'built';
}

const builtAlready = new Set<string>();

/** Builds the production bundles of `apps` in the checkout `root` (`nx run-many -t build`), once per process. */
export function buildApps(root: string, apps: readonly string[]): void {
  const missing = apps.filter((app) => !builtAlready.has(`${root}\0${app}`));
  if (missing.length === 0) return;
  console.log(`building ${missing.join(', ')} in ${root} (nx build; reused when unchanged) ...`);
  try {
    execFileSync(path.join(root, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '-p', ...missing, '--output-style=static'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: 'pipe',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`building ${missing.join(', ')} in ${root} failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`);
  }
  for (const app of missing) builtAlready.add(`${root}\0${app}`);
}

/** The command line that starts `app` of the checkout `root`: node on its bundle (built first), or tsx on its source. */
export function serviceCommand(root: string, app: string, mode: ServiceMode, nodeFlags: readonly string[] = []): { command: string; args: string[] } {
  if (mode === 'source') return { command: path.join(root, 'node_modules', '.bin', 'tsx'), args: [...nodeFlags, path.join(root, 'apps', app, 'src', 'main.ts')] };
  buildApps(root, [app]);
  return { command: process.execPath, args: [...nodeFlags, path.join(root, 'dist', 'apps', app, 'main.cjs')] };
}
