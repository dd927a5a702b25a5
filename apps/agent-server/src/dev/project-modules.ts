import path from 'node:path';

const insideDependencies = (file: string) => file.split(path.sep).includes('node_modules');

/**
 * Drops the project's own modules (not its dependencies) from the CommonJS cache, so importing a graph again
 * reads its files as they are now. Returns how many were dropped.
 */
export function forgetProjectModules(projectDir: string): number {
  const root = path.resolve(projectDir) + path.sep;
  let forgotten = 0;
  for (const file of Object.keys(require.cache)) {
    if (!file.startsWith(root) || insideDependencies(file.slice(root.length))) continue;
    delete require.cache[file];
    forgotten++;
  }
  return forgotten;
}
