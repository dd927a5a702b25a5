import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphSourceSpec, GraphTypeSchemas } from './typescript-graph-schemas';

// Bump when the extraction's output changes, so older entries are not reused.
const FORMAT = 5;

// The compiler's version, without loading the compiler into the server (extraction runs in a worker).
const TYPESCRIPT_VERSION = (JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;

interface CacheEntry {
  format: number;
  /** [file, fingerprint] for every file the extraction read. */
  inputs: [string, string][];
  graphs: Record<string, GraphTypeSchemas>;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

// A package's declarations change with its version: name@version stands for all its files (hashing the hundreds of
// .d.ts of @langchain/* on every lookup would cost more than it saves).
function packageJsonOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const depth = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return path.join(parts.slice(0, at + depth).join(path.sep), 'package.json');
}

function fingerprint(input: string): string {
  if (!existsSync(input)) return 'missing';
  if (!packageJsonOf(input)) return sha256(readFileSync(input));
  const { name, version } = JSON.parse(readFileSync(input, 'utf8')) as { name?: string; version?: string };
  return `${name}@${version}`;
}

/**
 * Schemas extracted from graphs' sources, kept on disk under `dir` and reused while every file the extraction read
 * (the graphs' sources by content, packages by version) is unchanged: a new revision with changed sources extracts
 * again; a restart, another replica of the same revision sharing the directory, or a new revision whose sources and
 * packages did not change (built in a folder of its own: paths under the project's `root` are kept relative to it)
 * does not.
 */
export class SchemaCache {
  constructor(
    private readonly dir: string,
    /** The project's folder: files under it are named relative to it, so a copy of the project elsewhere finds them. */
    private readonly root?: string,
  ) {}

  /** A file as the cache names it: relative to the project's folder when under it, else absolute. */
  private nameOf(file: string): string {
    if (!this.root) return file;
    const relative = path.relative(this.root, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : `./${relative.split(path.sep).join('/')}`;
  }

  private pathOf(name: string): string {
    return this.root && name.startsWith('./') ? path.join(this.root, name) : name;
  }

  private fileOf(specs: Record<string, GraphSourceSpec>): string {
    const graphs = Object.entries(specs)
      .map(([graphId, spec]): [string, GraphSourceSpec] => [graphId, { ...spec, sourceFile: this.nameOf(spec.sourceFile) }])
      .sort(([a], [b]) => a.localeCompare(b));
    return path.join(this.dir, `${sha256(JSON.stringify({ format: FORMAT, typescript: TYPESCRIPT_VERSION, graphs }))}.json`);
  }

  read(specs: Record<string, GraphSourceSpec>): Record<string, GraphTypeSchemas> | undefined {
    const file = this.fileOf(specs);
    if (!existsSync(file)) return undefined;
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
      if (entry.format !== FORMAT) return undefined;
      return entry.inputs.every(([input, print]) => fingerprint(this.pathOf(input)) === print) ? entry.graphs : undefined;
    } catch {
      return undefined;
    }
  }

  write(specs: Record<string, GraphSourceSpec>, files: string[], graphs: Record<string, GraphTypeSchemas>): void {
    const inputs = [...new Set(files.map((file) => packageJsonOf(file) ?? file))].map((input): [string, string] => [this.nameOf(input), fingerprint(input)]);
    const entry: CacheEntry = { format: FORMAT, inputs, graphs };
    mkdirSync(this.dir, { recursive: true });
    const target = this.fileOf(specs);
    // Written aside then renamed: a replica reading at the same time sees the old entry or the new one, whole.
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, target);
  }
}
