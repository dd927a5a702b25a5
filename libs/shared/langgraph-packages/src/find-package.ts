import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** One installed package as Node would load it. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** Where the lookup found it (`<dir>/node_modules/<name>`, possibly a symlink). */
  location: string;
  /** Its real directory (what Node loads, and tells copies apart by). */
  dir: string;
}

function readPackage(name: string, location: string): InstalledPackage | undefined {
  const manifest = path.join(location, 'package.json');
  if (!existsSync(manifest)) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
    return { name, version: typeof version === 'string' ? version : '0.0.0', location, dir: realpathSync(location) };
  } catch {
    return undefined;
  }
}

/**
 * The copy of `name` that `require(name)` from a module in `fromDir` would load: Node's lookup through the
 * `node_modules` folders of `fromDir` and of its ancestors.
 */
export function findPackage(name: string, fromDir: string): InstalledPackage | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') {
      const found = readPackage(name, path.join(dir, 'node_modules', name));
      if (found) return found;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
