import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphSchema } from '../graph-schema';
import type { GraphSourceSpec } from './typescript-graph-schemas';

// Bump when the extraction's output changes, so older entries are not reused.
const FORMAT = 2;

interface CacheEntry {
  format: number;
  /** [file, fingerprint] for every file the extraction read. */
  inputs: [string, string][];
  schemas: Record<string, GraphSchema>;
}

// The compiler's version, without loading the compiler into the server (extraction runs in a worker).
const TYPESCRIPT_VERSION = (JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

// A package's declarations change with its version: name@version stands for all its files (hashing the hundreds of
// .d.ts of @langchain/* on every lookup would cost more than it saves).
function packageRoot(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const depth = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + depth).join(path.sep);
}

function fingerprint(file: string): string {
  const root = packageRoot(file);
  const target = root ? path.join(root, 'package.json') : file;
  if (!existsSync(target)) return 'missing';
  if (!root) return sha256(readFileSync(target));
  const { name, version } = JSON.parse(readFileSync(target, 'utf8')) as { name?: string; version?: string };
  return `${name}@${version}`;
}

/**
 * Schemas extracted from a graph's source, kept on disk under `dir` and reused while every file the extraction
 * read (the graph's sources by content, packages by version) is unchanged: a new revision with changed sources
 * extracts again, a restart or another replica of the same revision does not.
 */
export class SchemaCache {
  constructor(private readonly dir: string) {}

  private fileOf(spec: GraphSourceSpec): string {
    const key = sha256(JSON.stringify({ format: FORMAT, typescript: TYPESCRIPT_VERSION, file: path.resolve(spec.sourceFile), name: spec.exportName }));
    return path.join(this.dir, `${key}.json`);
  }

  read(spec: GraphSourceSpec): Record<string, GraphSchema> | undefined {
    const file = this.fileOf(spec);
    if (!existsSync(file)) return undefined;
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
      if (entry.format !== FORMAT) return undefined;
      return entry.inputs.every(([input, print]) => fingerprint(input) === print) ? entry.schemas : undefined;
    } catch {
      return undefined;
    }
  }

  write(spec: GraphSourceSpec, files: string[], schemas: Record<string, GraphSchema>): void {
    const inputs = new Map<string, string>();
    for (const file of files) {
      const root = packageRoot(file);
      const key = root ? path.join(root, 'package.json') : file;
      if (!inputs.has(key)) inputs.set(key, fingerprint(file));
    }
    const entry: CacheEntry = { format: FORMAT, inputs: [...inputs], schemas };
    mkdirSync(this.dir, { recursive: true });
    const target = this.fileOf(spec);
    // Written aside then renamed: a replica reading at the same time sees the old entry or the new one, whole.
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, target);
  }
}
