import fs from 'node:fs/promises';
import path from 'node:path';
import { satisfies } from '@platform/langgraph-packages';

export interface DependencyPlan {
  /** Dependencies the platform cannot provide at a compatible version (empty: no install needed). */
  missing: string[];
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The version of `name` installed under `platformRoot/node_modules`, if any. */
async function providedVersion(platformRoot: string, name: string): Promise<string | undefined> {
  const manifest = await readJson(path.join(platformRoot, 'node_modules', name, 'package.json'));
  return typeof manifest?.version === 'string' ? manifest.version : undefined;
}

/**
 * Which of the project's runtime dependencies the platform does not provide. The Agent Server resolves packages a
 * checkout lacks from the platform's own node_modules, so a project whose every dependency is there at a
 * satisfying version needs no `npm install`.
 */
export async function planDependencies(projectDir: string, platformRoot: string): Promise<DependencyPlan> {
  const manifest = await readJson(path.join(projectDir, 'package.json'));
  const deps = (manifest?.dependencies ?? {}) as Record<string, string>;
  const missing: string[] = [];
  for (const [name, range] of Object.entries(deps)) {
    const version = await providedVersion(platformRoot, name);
    if (!version || !satisfies(version, String(range))) missing.push(`${name}@${range}${version ? ` (platform has ${version})` : ''}`);
  }
  return { missing };
}
