import { findPackage, type InstalledPackage } from './find-package';
import { SHARED_PACKAGES, SUPPORTED_LANGGRAPH_VERSIONS } from './supported-versions';
import { satisfies } from './version-range';

/** A package the deployment and the server share, and whose copy it is. */
export interface SharedPackage extends InstalledPackage {
  origin: 'project' | 'platform';
}

function lookUp(root: string, platform?: Map<string, SharedPackage>): Map<string, SharedPackage> {
  const chosen = new Map<string, SharedPackage>();
  for (const [name, places] of Object.entries(SHARED_PACKAGES)) {
    let found: InstalledPackage | undefined;
    for (const place of places) {
      const from = place === 'project' ? root : chosen.get(place)?.origin === 'project' ? chosen.get(place)?.dir : undefined;
      found = from ? findPackage(name, from) : undefined;
      if (found) break;
    }
    const own = platform?.get(name);
    // A checkout under the platform's root, without an install of its own, finds the platform's copy.
    if (found && found.dir !== own?.dir) chosen.set(name, { ...found, origin: 'project' });
    else if (own) chosen.set(name, own);
  }
  return chosen;
}

/**
 * Which copy of each shared package a deployment runs with: the one its install provides (as its own modules
 * resolve it from `projectDir`, the directory of langgraph.json), else the platform's (found from `platformRoot`).
 */
export function resolveSharedPackages(projectDir: string, platformRoot: string): SharedPackage[] {
  const platform = new Map([...lookUp(platformRoot)].map(([name, p]) => [name, { ...p, origin: 'platform' as const }]));
  return [...lookUp(projectDir, platform).values()];
}

export interface UnsupportedPackage {
  name: string;
  version: string;
  range: string;
}

/** The shared packages whose version lies outside SUPPORTED_LANGGRAPH_VERSIONS. */
export function unsupportedPackages(packages: SharedPackage[]): UnsupportedPackage[] {
  return Object.entries(SUPPORTED_LANGGRAPH_VERSIONS).flatMap(([name, range]) => {
    const found = packages.find((p) => p.name === name);
    return found && !satisfies(found.version, range) ? [{ name, version: found.version, range }] : [];
  });
}

/** What a user reads when the deployment's LangGraph.js versions are not supported. */
export function unsupportedMessage(problems: UnsupportedPackage[]): string {
  const list = problems.map((p) => `${p.name} ${p.version} (supported: ${p.range})`).join(', ');
  return `Unsupported LangGraph.js version${problems.length > 1 ? 's' : ''}: ${list}. Install a supported version (package.json and its lockfile).`;
}
