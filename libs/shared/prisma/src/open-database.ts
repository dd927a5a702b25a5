import type { Database } from './database.types';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';

/** Where a service's data lives. */
export interface OpenDatabaseOptions {
  /** A `postgres://` URL; when set, Postgres is used and `dataDir` is ignored. */
  url?: string;
  /** PGlite's directory when no `url` is given (created if missing); `memory://` keeps it in memory. */
  dataDir: string;
  /** Connections in the Postgres pool (default 10, pg's default). */
  poolSize?: number;
}

/**
 * Opens the database of a service: Postgres when a URL is given, else embedded PGlite.
 * Both expose the same Prisma adapter and raw SQL helpers, so the same code (and migrations) run on either.
 */
export async function openDatabase({ url, dataDir, poolSize }: OpenDatabaseOptions): Promise<Database> {
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('database url must start with postgres:// or postgresql://');
    return openPostgresDatabase(url, { poolSize });
  }
  return openPgliteDatabase(dataDir);
}
