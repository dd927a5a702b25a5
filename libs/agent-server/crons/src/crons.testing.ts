import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { createAssistantRepository, syncSystemAssistants, type AssistantRepository } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphExport } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { createTestRunService } from '@platform/agent-server-runs/testing';
import { openRunsTestDatabase } from '@platform/agent-server-run-records/testing';
import { createThreadRepository, type ThreadRepository } from '@platform/agent-server-threads';
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
  const database = await openRunsTestDatabase();
  const { db } = database;
  const checkpointer = new PrismaCheckpointSaver(db.prisma);
  const registry = createGraphRegistry({ graphs: { chat: { source: chatGraph() as unknown as GraphExport } }, checkpointer });
  const assistants = createAssistantRepository(db.prisma);
  await syncSystemAssistants(assistants, registry);
  const runs = createTestRunService(db, { registry, checkpointer, assistants });
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
      await database.close();
    },
  };
}
