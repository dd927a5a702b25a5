import { randomUUID } from 'node:crypto';
import type { Database, SqlSession } from './database.types';
import { readMigrationFiles, type MigrationFile } from './migration-files';
import { MigrationError } from './migration.error';

/** What the runner logs through; a pino logger fits. */
export interface MigrationLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

// The key `prisma migrate` locks too, so this runner and Prisma's never interleave.
const LOCK_KEY = 72707369;

// The table `prisma migrate` keeps, column for column.
const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies `<migrationsDir>/<name>/migration.sql` files not applied yet, in lexical order, each in its
 * own transaction, recording them in `_prisma_migrations` as Prisma does. Holds an advisory lock for
 * the whole run, so concurrent runners on one Postgres database apply each migration once.
 * Throws {@link MigrationError} when an applied migration's file changed, or when a migration fails
 * (that migration is rolled back and not recorded; earlier ones stay applied).
 * @returns the names of the migrations applied by this call.
 */
export async function migrate(db: Database, migrationsDir: string, logger?: MigrationLogger): Promise<string[]> {
  const files = await readMigrationFiles(migrationsDir);
  return db.withSession(async (session) => {
    await session.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await session.exec(CREATE_TABLE);
      const pending = await pendingMigrations(session, files, logger);
      const applied: string[] = [];
      for (const migration of pending) {
        await applyMigration(session, migration);
        logger?.info({ migration: migration.name }, 'migration applied');
        applied.push(migration.name);
      }
      return applied;
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}

/**
 * The migrations of `migrationsDir` this database has not applied (all of them when it has none, e.g. an empty
 * database), without changing anything.
 */
export async function unappliedMigrations(db: Database, migrationsDir: string): Promise<{ pending: string[]; total: number }> {
  const files = await readMigrationFiles(migrationsDir);
  const [table] = await db.query<{ name: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS name`);
  const applied = table?.name
    ? new Set((await db.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')).map((r) => r.migration_name))
    : new Set<string>();
  return { pending: files.map((f) => f.name).filter((name) => !applied.has(name)), total: files.length };
}

async function pendingMigrations(
  session: SqlSession,
  files: MigrationFile[],
  logger?: MigrationLogger,
): Promise<MigrationFile[]> {
  const rows = await session.query<AppliedRow>(
    'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
  );
  const applied = new Map(rows.map((row) => [row.migration_name, row]));
  for (const file of files) {
    const row = applied.get(file.name);
    if (!row) continue;
    // Rows left unfinished by `prisma migrate deploy` need a person (`prisma migrate resolve`).
    if (row.finished_at === null) {
      throw new MigrationError(file.name, `migration ${file.name} failed earlier and was never resolved`);
    }
    if (row.checksum !== file.checksum) {
      throw new MigrationError(file.name, `migration ${file.name} was modified after it was applied (checksum differs)`);
    }
  }
  const known = new Set(files.map((file) => file.name));
  for (const name of applied.keys()) {
    if (!known.has(name)) logger?.warn({ migration: name }, 'applied migration not found in the migrations directory');
  }
  return files.filter((file) => !applied.has(file.name));
}

async function applyMigration(session: SqlSession, migration: MigrationFile): Promise<void> {
  try {
    await session.transaction(async (tx) => {
      await tx.exec(migration.sql);
      // started_at is the transaction's start (now()), finished_at the wall clock at commit time.
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new MigrationError(migration.name, `migration ${migration.name} failed: ${reason}`, { cause: err });
  }
}
