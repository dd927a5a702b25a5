import fs from 'node:fs';
import path from 'node:path';

/**
 * Finds `prisma/<service>/migrations` by walking up from `fromDir`, so it resolves both from a lib's
 * source and from a bundle under `dist/`. When none is found it returns `<cwd>/prisma/<service>/migrations`,
 * so a missing directory shows up as a clear error at migrate time rather than at import time.
 */
export function findMigrationsDir(service: string, fromDir: string): string {
  const relative = path.join('prisma', service, 'migrations');
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(relative);
  }
}
