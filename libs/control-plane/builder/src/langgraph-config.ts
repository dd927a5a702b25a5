import fs from 'node:fs/promises';
import path from 'node:path';
import { BuildError } from './build-error';

export interface LanggraphConfig {
  /** Absolute path of the configuration file. */
  path: string;
  /** Directory the configuration's relative paths start from. */
  projectDir: string;
  graphs: Record<string, { file: string; exportName?: string; description?: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * Reads and checks a `langgraph.json` the way the Agent Server will load it: JSON, a non-empty `graphs` map whose
 * entries are `./file:export` (or `{path, description}`) naming files inside the checkout, and well-typed optional
 * fields. Every problem is a BuildError naming the field.
 */
export async function readLanggraphConfig(checkoutDir: string, relativePath: string): Promise<LanggraphConfig> {
  const file = path.resolve(checkoutDir, relativePath);
  if (!inside(checkoutDir, file)) throw new BuildError(`langgraph_config_path "${relativePath}" points outside the repository`);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new BuildError(`${relativePath} not found in the repository`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BuildError(`${relativePath} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw)) throw new BuildError(`${relativePath} must hold a JSON object`);
  if (!isObject(raw.graphs) || Object.keys(raw.graphs).length === 0) {
    throw new BuildError(`${relativePath}: "graphs" must map at least one graph id to "./path/to/file:export"`);
  }
  const projectDir = path.dirname(file);
  const graphs: LanggraphConfig['graphs'] = {};
  for (const [id, entry] of Object.entries(raw.graphs)) {
    const spec = typeof entry === 'string' ? entry : isObject(entry) && typeof entry.path === 'string' ? entry.path : undefined;
    if (!spec) throw new BuildError(`${relativePath}: graph "${id}" must be a string "./file:export" or an object with "path"`);
    const colon = spec.lastIndexOf(':');
    // A Windows drive letter is not an export separator.
    const [target, exportName] = colon > 1 ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, undefined];
    const graphFile = path.resolve(projectDir, target);
    if (!inside(checkoutDir, graphFile)) throw new BuildError(`${relativePath}: graph "${id}" points outside the repository (${target})`);
    if (!(await isFile(graphFile))) throw new BuildError(`${relativePath}: graph "${id}" file ${target} not found`);
    if (exportName !== undefined && !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
      throw new BuildError(`${relativePath}: graph "${id}" export "${exportName}" is not a valid export name`);
    }
    const description = isObject(entry) && typeof entry.description === 'string' ? entry.description : undefined;
    graphs[id] = { file: graphFile, exportName, description };
  }
  if (raw.dependencies !== undefined && !(Array.isArray(raw.dependencies) && raw.dependencies.every((d) => typeof d === 'string'))) {
    throw new BuildError(`${relativePath}: "dependencies" must be a list of strings`);
  }
  if (raw.env !== undefined && typeof raw.env !== 'string' && !isObject(raw.env)) {
    throw new BuildError(`${relativePath}: "env" must be a path to a .env file or an object`);
  }
  if (raw.node_version !== undefined && typeof raw.node_version !== 'string' && typeof raw.node_version !== 'number') {
    throw new BuildError(`${relativePath}: "node_version" must be a string`);
  }
  return { path: file, projectDir, graphs };
}
