import { createRequire } from 'node:module';
import path from 'node:path';
import type ts from 'typescript';

/** Absolute candidate files for a specifier the tsconfig's `paths` map (in order), or undefined when none maps it. */
export type PathsMatcher = (specifier: string) => string[] | undefined;

let typescript: typeof ts | undefined;
// TypeScript reads the config (comments, `extends` chains, package-relative extends) exactly as tsc does; loaded
// only once a project file resolves a bare specifier.
const loadTypeScript = (): typeof ts => (typescript ??= createRequire(__filename)('typescript') as typeof ts);

/** The nearest tsconfig.json at or above `dir`, as tsc and the reference's `langgraph dev` find it. */
export function nearestTsconfig(dir: string): string | undefined {
  const ts = loadTypeScript();
  return ts.findConfigFile(dir, ts.sys.fileExists, 'tsconfig.json');
}

/**
 * A matcher for a tsconfig's `compilerOptions.paths` with TypeScript's rules: an exact key wins, else the pattern
 * with the longest prefix before its `*`; each substitution is relative to `baseUrl` (or the file that set `paths`).
 */
export function tsconfigPathsMatcher(tsconfig: string): PathsMatcher | undefined {
  const ts = loadTypeScript();
  const source = ts.readJsonConfigFile(tsconfig, ts.sys.readFile);
  const { options } = ts.parseJsonSourceFileConfigFileContent(source, ts.sys, path.dirname(tsconfig));
  const paths = options.paths;
  if (!paths || Object.keys(paths).length === 0) return undefined;
  const base = options.baseUrl ?? (options as { pathsBasePath?: string }).pathsBasePath ?? path.dirname(tsconfig);
  const patterns = Object.keys(paths)
    .filter((key) => key.split('*').length === 2)
    .map((key) => {
      const star = key.indexOf('*');
      return { key, prefix: key.slice(0, star), suffix: key.slice(star + 1) };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return (specifier) => {
    if (Object.hasOwn(paths, specifier) && !specifier.includes('*')) return paths[specifier].map((target) => path.resolve(base, target));
    const match = patterns.find(
      ({ prefix, suffix }) => specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix),
    );
    if (!match) return undefined;
    const captured = specifier.slice(match.prefix.length, specifier.length - match.suffix.length);
    return paths[match.key].map((target) => path.resolve(base, target.replace('*', captured)));
  };
}
