// The web console's bundle for `npm start` and the browser tests: built with Vite when it is missing or older than
// any of its sources, so a fresh clone's `npm ci && npm start` serves it and an edited console is rebuilt.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
export const CONSOLE_DIST = path.join(ROOT, 'dist/apps/console');
const SOURCES = ['apps/console/src', 'apps/console/public', 'apps/console/index.html', 'apps/console/vite.config.mts', 'package-lock.json'];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

export function consoleIsStale(): boolean {
  const built = fs.statSync(path.join(CONSOLE_DIST, 'index.html'), { throwIfNoEntry: false });
  return !built || SOURCES.some((source) => newestMtime(path.join(ROOT, source)) > built.mtimeMs);
}

/** Builds the console if needed; resolves with its directory. `log` gets one line when a build starts. */
export async function ensureConsoleBuilt(log: (line: string) => void = () => undefined): Promise<string> {
  if (!consoleIsStale()) return CONSOLE_DIST;
  log('Building the web console (vite build)…');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', 'apps/console/vite.config.mts', '--logLevel', 'warn'], {
      cwd: ROOT,
      // NODE_ENV=production whatever the caller's (jest sets "test", which would build React's development bundle).
      env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`The web console did not build (vite exited ${code}):\n${output.join('')}`);
  return CONSOLE_DIST;
}
