import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { PrismaStore, type PrismaStoreOptions } from './prisma-store';

export interface StoreFixture {
  db: AgentServerDatabase;
  store: PrismaStore;
  /** Moves an item's expiry (seconds from now; negative: already expired), as time passing would. */
  expireIn(namespace: string[], key: string, seconds: number): Promise<void>;
  /** Seconds until the item expires (null: never). */
  expiresIn(namespace: string[], key: string): Promise<number | null>;
  close(): Promise<void>;
}

/**
 * A migrated agent-server database of the test's own (a scratch Postgres database when DATABASE_URL is set, else
 * in-memory PGlite) with a store on it. (Domain libs may not import @platform/testing, hence @platform/prisma.)
 */
export async function openStoreFixture(options: PrismaStoreOptions = {}): Promise<StoreFixture> {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  const db = await openAgentServerDatabase({ url: scratch?.url, dataDir: 'memory://' });
  await db.migrate();
  return {
    db,
    store: new PrismaStore(db.prisma, options),
    async expireIn(namespace, key, seconds) {
      await db.prisma.$executeRawUnsafe(
        `UPDATE store_items SET expires_at = now() + $3::float8 * interval '1 second' WHERE prefix = $1 AND key = $2`,
        namespace.join('.'),
        key,
        seconds,
      );
    },
    async expiresIn(namespace, key) {
      const [row] = await db.prisma.$queryRawUnsafe<{ seconds: number | null }[]>(
        `SELECT extract(epoch FROM expires_at - now())::float8 AS seconds FROM store_items WHERE prefix = $1 AND key = $2`,
        namespace.join('.'),
        key,
      );
      return row?.seconds ?? null;
    },
    async close() {
      await db.close();
      await scratch?.drop();
    },
  };
}
