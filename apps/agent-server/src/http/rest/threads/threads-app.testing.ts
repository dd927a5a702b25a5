import { randomUUID } from 'node:crypto';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { Annotation, interrupt, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import type { Express } from 'express';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { CheckpointsRepository, openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphRegistry } from '@platform/agent-server-graphs';
import { createThreadRepository, createThreadStateService, type ThreadRepository, type ThreadStateService } from '@platform/agent-server-threads';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { createTestDatabase } from '@platform/testing';
import { threadsRoutes } from './threads.routes';

export const TEST_SECRET = 'test-internal-secret-123';

const ApprovalState = Annotation.Root({
  items: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/** The graphs the test server serves: `chat` echoes the last message; `approval` interrupts, then appends the answer. */
export function testGraphs() {
  return {
    chat: new StateGraph(MessagesAnnotation)
      .addNode('agent', (state) => ({ messages: [new AIMessage(`echo: ${String((state.messages.at(-1) as BaseMessage).content)}`)] }))
      .addEdge('__start__', 'agent')
      .addEdge('agent', '__end__')
      .compile(),
    approval: new StateGraph(ApprovalState)
      .addNode('ask', () => ({ items: [String(interrupt({ question: 'ok?' }))] }))
      .addEdge('__start__', 'ask')
      .addEdge('ask', '__end__')
      .compile(),
  };
}

export interface TestThreadsApp {
  app: Express;
  db: AgentServerDatabase;
  registry: GraphRegistry;
  threads: ThreadRepository;
  state: ThreadStateService;
  /** Runs a graph on a thread as a run would, then caches the thread's state (the runs lib's job in the server). */
  run(threadId: string, graphId: 'chat' | 'approval', input: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * The threads routes in the real HTTP app (gateway signature required, FastAPI errors) on a test database of
 * their own (Postgres when DATABASE_URL is set, else in-memory PGlite), with graphs checkpointed in it.
 */
export async function startTestThreadsApp(): Promise<TestThreadsApp> {
  const target = await createTestDatabase();
  const db = await openAgentServerDatabase({ url: target.url, dataDir: target.dataDir });
  await db.migrate();
  const checkpointer = new PrismaCheckpointSaver(db.prisma);
  const graphs = testGraphs();
  const registry = createGraphRegistry({ graphs: { chat: { source: graphs.chat }, approval: { source: graphs.approval } }, checkpointer });
  const threads = createThreadRepository(db.prisma);
  const state = createThreadStateService({ registry, checkpointer, threads, checkpoints: new CheckpointsRepository(db.prisma) });
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      mountRoutes(routes, threadsRoutes({ threads, state }));
    },
  });
  return {
    app,
    db,
    registry,
    threads,
    state,
    async run(threadId, graphId, input) {
      await (await registry.get(graphId)).invoke(input, { configurable: { thread_id: threadId } });
      await state.refreshThreadCache(threadId);
    },
    async close() {
      await db.close();
      await target.drop();
    },
  };
}

/** Headers the gateway adds for a caller (signed for one request id; valid for five minutes). */
export function gatewayHeaders(requestId: string = randomUUID()): Record<string, string> {
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId: randomUUID(), organizationId: 'org', subject: 'key' }, requestId) };
}
