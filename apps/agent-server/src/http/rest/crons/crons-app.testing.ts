import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { CronScheduler } from '@platform/agent-server-crons';
import { openCronsFixture, type CronsFixture } from '@platform/agent-server-crons/testing';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { cronsRoutes } from './crons.routes';

const TEST_SECRET = 'test-internal-secret-crons';

export interface TestCronsApp extends Omit<CronsFixture, 'assistants' | 'deps' | 'createRun'> {
  app: Express;
  /** A scheduler wired as the server wires it (runs created through the run service). */
  scheduler: CronScheduler;
}

/**
 * The crons routes in the real HTTP app (gateway signature required, FastAPI errors) over the crons lib's fixture: a
 * test database of their own with the `chat` graph's system assistant and a started run service, so a scheduler tick
 * fires real runs.
 */
export async function startTestCronsApp(): Promise<TestCronsApp> {
  const fixture = await openCronsFixture();
  const scheduler = new CronScheduler({ crons: fixture.crons, createRun: fixture.createRun, logger: silentLogger });
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      mountRoutes(routes, cronsRoutes({ ...fixture.deps, threads: fixture.threads }));
    },
  });
  return {
    ...fixture,
    app,
    scheduler,
    async close() {
      await scheduler.stop();
      await fixture.close();
    },
  };
}

/** Headers the gateway adds for a caller (signed for one request id; valid for five minutes). */
export function cronsGatewayHeaders(requestId: string = randomUUID()): Record<string, string> {
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'key' }, requestId) };
}
