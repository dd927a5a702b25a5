import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { PrismaStore, type PrismaStoreOptions } from '@platform/agent-server-data-access/store';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { createTestDatabase } from '@platform/testing';
import { storeRoutes } from './store.routes';

const TEST_SECRET = 'test-internal-secret-store';

export interface TestStoreApp {
  app: Express;
  db: AgentServerDatabase;
  store: PrismaStore;
  /** Moves an item's expiry to `seconds` from now (negative: expired), as time passing would. */
  expireIn(namespace: string[], key: string, seconds: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The store routes in the real HTTP app (gateway signature required, FastAPI errors) on a test database of their
 * own (Postgres when DATABASE_URL is set, else in-memory PGlite).
 */
export async function startTestStoreApp(options: PrismaStoreOptions = {}): Promise<TestStoreApp> {
  const target = await createTestDatabase();
  const db = await openAgentServerDatabase({ url: target.url, dataDir: target.dataDir });
  await db.migrate();
  const store = new PrismaStore(db.prisma, options);
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      mountRoutes(routes, storeRoutes({ store }));
    },
  });
  return {
    app,
    db,
    store,
    async expireIn(namespace, key, seconds) {
      await db.prisma.$executeRawUnsafe(
        `UPDATE store_items SET expires_at = now() + $3::float8 * interval '1 second' WHERE prefix = $1 AND key = $2`,
        namespace.join('.'),
        key,
        seconds,
      );
    },
    async close() {
      await db.close();
      await target.drop();
    },
  };
}

/** Headers the gateway adds for a caller (signed for one request id; valid for five minutes). */
export function storeGatewayHeaders(requestId: string = randomUUID()): Record<string, string> {
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'key' }, requestId) };
}
