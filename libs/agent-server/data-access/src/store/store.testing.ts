import type { AgentServerDatabase } from '../agent-server-database';
import { openTestAgentServerDatabase } from '../agent-server-database.testing';
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

/** A store on a migrated agent-server database of the test's own (`openTestAgentServerDatabase`). */
export async function openStoreFixture(options: PrismaStoreOptions = {}): Promise<StoreFixture> {
  const { db, close } = await openTestAgentServerDatabase();
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
    close,
  };
}
