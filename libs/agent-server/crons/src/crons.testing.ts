import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { createAssistantRepository, syncSystemAssistants, type AssistantRepository } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphExport } from '@platform/agent-server-graphs';
import { createRunService, runCreateSchema, type RunService } from '@platform/agent-server-runs';
import { createThreadRepository, type ThreadRepository } from '@platform/agent-server-threads';
import { silentLogger } from '@platform/logging';
import { createScratchPostgresDatabase } from '@platform/prisma';
import type { CreateCronRun } from './cron-scheduler';
import { createCronRepository, type CronRepository } from './crons.repository';
import type { CronsDeps } from './crons.deps';

/** `chat`: answers the last message with `echo: <text>`. */
export function chatGraph() {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (state) => ({ messages: [new AIMessage(`echo: ${String((state.messages.at(-1) as BaseMessage).content)}`)] }))
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__')
    .compile();
}

export interface CronsFixture {
  db: AgentServerDatabase;
  crons: CronRepository;
  assistants: AssistantRepository;
  threads: ThreadRepository;
  runs: RunService;
  deps: CronsDeps;
  /** The runs service's create, with the request validated as the routes validate run requests. */
  createRun: CreateCronRun;
  /** Makes a cron due now, as time passing would. */
  makeDue(cronId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A migrated agent-server database of the test's own (scratch Postgres when DATABASE_URL is set, else in-memory
 * PGlite) with the `chat` graph, its system assistant and a started run service: crons fire real runs.
 */
export async function openCronsFixture(): Promise<CronsFixture> {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  const db = await openAgentServerDatabase({ url: scratch?.url, dataDir: 'memory://' });
  await db.migrate();
  const checkpointer = new PrismaCheckpointSaver(db.prisma);
  const registry = createGraphRegistry({ graphs: { chat: { source: chatGraph() as unknown as GraphExport } }, checkpointer });
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
      concurrency: 4,
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
  return {
    db,
    crons,
    assistants,
    threads: createThreadRepository(db.prisma),
    runs,
    deps: { crons, assistants },
    createRun: (target, request) => runs.create(target, runCreateSchema.parse(request)),
    makeDue: async (cronId) => {
      await db.sql.query(`UPDATE crons SET next_run_date = now() - interval '1 second' WHERE cron_id = $1::uuid`, [cronId]);
    },
    close: async () => {
      await runs.stop();
      await db.close();
      await scratch?.drop();
    },
  };
}
