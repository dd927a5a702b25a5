import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A scratch directory of fake installed packages (`package.json` plus whatever files a test gives). */
export interface PackageTree {
  root: string;
  /** Writes `<dir>/node_modules/<name>` with `version` and extra files; `dir` is relative to the root. */
  install(dir: string, name: string, version: string, files?: Record<string, string>, manifest?: Record<string, unknown>): string;
  link(target: string, linkPath: string): void;
  path(...parts: string[]): string;
  remove(): void;
}

export function packageTree(): PackageTree {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lg-packages-')));
  const at = (...parts: string[]) => path.join(root, ...parts);
  return {
    root,
    path: at,
    install(dir, name, version, files = {}, manifest = {}) {
      const location = at(dir, 'node_modules', name);
      fs.mkdirSync(location, { recursive: true });
      fs.writeFileSync(path.join(location, 'package.json'), JSON.stringify({ name, version, ...manifest }));
      for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(location, file), content);
      return location;
    },
    link(target, linkPath) {
      fs.mkdirSync(path.dirname(at(linkPath)), { recursive: true });
      fs.symlinkSync(at(target), at(linkPath), 'dir');
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
