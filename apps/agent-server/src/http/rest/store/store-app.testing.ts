import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import type { PrismaStoreOptions } from '@platform/agent-server-data-access/store';
import { openStoreFixture, type StoreFixture } from '@platform/agent-server-data-access/testing';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { storeRoutes } from './store.routes';

const TEST_SECRET = 'test-internal-secret-store';

export interface TestStoreApp extends StoreFixture {
  app: Express;
}

/**
 * The store routes in the real HTTP app (gateway signature required, FastAPI errors) on the store fixture's test
 * database (Postgres when DATABASE_URL is set, else in-memory PGlite).
 */
export async function startTestStoreApp(options: PrismaStoreOptions = {}): Promise<TestStoreApp> {
  const fixture = await openStoreFixture(options);
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      mountRoutes(routes, storeRoutes({ store: fixture.store }));
    },
  });
  return { ...fixture, app };
}

/** Headers the gateway adds for a caller (signed for one request id; valid for five minutes). */
export function storeGatewayHeaders(requestId: string = randomUUID()): Record<string, string> {
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'key' }, requestId) };
}
