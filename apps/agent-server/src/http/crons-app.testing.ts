import { randomUUID } from 'node:crypto';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import type { Express } from 'express';
import { createAssistantRepository, syncSystemAssistants } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { createCronRepository, CronScheduler, type CronRepository } from '@platform/agent-server-crons';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphExport } from '@platform/agent-server-graphs';
import { createRunService, runCreateSchema, type RunService } from '@platform/agent-server-runs';
import { createThreadRepository, type ThreadRepository } from '@platform/agent-server-threads';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { createTestDatabase } from '@platform/testing';
import { cronsRoutes } from './crons.routes';

const TEST_SECRET = 'test-internal-secret-crons';

const chat = new StateGraph(MessagesAnnotation)
  .addNode('agent', (state) => ({ messages: [new AIMessage(`echo: ${String((state.messages.at(-1) as BaseMessage).content)}`)] }))
  .addEdge('__start__', 'agent')
  .addEdge('agent', '__end__')
  .compile();

export interface TestCronsApp {
  app: Express;
  db: AgentServerDatabase;
  crons: CronRepository;
  threads: ThreadRepository;
  runs: RunService;
  /** A scheduler wired as the server wires it (runs created through the run service). */
  scheduler: CronScheduler;
  /** Makes a cron due now, as time passing would. */
  makeDue(cronId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The crons routes in the real HTTP app (gateway signature required, FastAPI errors) on a test database of their
 * own (Postgres when DATABASE_URL is set, else in-memory PGlite), with the `chat` graph's system assistant and a
 * started run service, so a scheduler tick fires real runs.
 */
export async function startTestCronsApp(): Promise<TestCronsApp> {
  const target = await createTestDatabase();
  const db = await openAgentServerDatabase({ url: target.url, dataDir: target.dataDir });
  await db.migrate();
  const checkpointer = new PrismaCheckpointSaver(db.prisma);
  const registry = createGraphRegistry({ graphs: { chat: { source: chat as unknown as GraphExport } }, checkpointer });
  const assistants = createAssistantRepository(db.prisma);
  await syncSystemAssistants(assistants, registry);
  const runs = createRunService({
    sql: db.sql,
    notifications: db.notifications,
    registry,
    checkpointer,
    assistants,
    logger: silentLogger,
    settings: {
      concurrency: 2,
      leaseMs: 30_000,
      heartbeatMs: 5_000,
      pollMs: 100,
      sweepMs: 5_000,
      maxAttempts: 3,
      retentionMs: 60_000,
      flushMs: 10,
      shutdownGraceMs: 1_000,
    },
  });
  await runs.start();
  const crons = createCronRepository(db.sql);
  const scheduler = new CronScheduler({
    crons,
    createRun: (runTarget, request) => runs.create(runTarget, runCreateSchema.parse(request)),
    logger: silentLogger,
  });
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      routes.use(cronsRoutes({ crons, assistants }));
    },
  });
  return {
    app,
    db,
    crons,
    threads: createThreadRepository(db.prisma),
    runs,
    scheduler,
    makeDue: async (cronId) => {
      await db.sql.query(`UPDATE crons SET next_run_date = now() - interval '1 second' WHERE cron_id = $1::uuid`, [cronId]);
    },
    async close() {
      await scheduler.stop();
      await runs.stop();
      await db.close();
      await target.drop();
    },
  };
}

/** Headers the gateway adds for a caller (signed for one request id; valid for five minutes). */
export function cronsGatewayHeaders(requestId: string = randomUUID()): Record<string, string> {
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'key' }, requestId) };
}
