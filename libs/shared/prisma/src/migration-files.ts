import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MigrationError } from './migration.error';

/** One `<migrationsDir>/<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma records it. */
  checksum: string;
}

/** Reads the migrations of a directory in lexical order of their folder names (timestamps first). */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await fs.readdir(migrationsDir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new Error(`migrations directory not found: ${migrationsDir}`, { cause: err });
    throw err;
  });
  // Plain code-unit order, not locale order: the same on every machine.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, 'migration.sql');
      const bytes = await fs.readFile(file).catch((err: unknown) => {
        throw new MigrationError(name, `migration ${name} has no migration.sql (${file})`, { cause: err });
      });
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}
