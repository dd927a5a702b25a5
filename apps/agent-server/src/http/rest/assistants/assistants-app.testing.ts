import { randomUUID } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { Express } from 'express';
import { z } from 'zod';
import { createAssistantRepository, syncSystemAssistants, type AssistantRepository } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphRegistry } from '@platform/agent-server-graphs';
import { createThreadRepository, type ThreadRepository } from '@platform/agent-server-threads';
import { createHttpApp } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { mountRoutes } from '@platform/openapi';
import { createTestDatabase } from '@platform/testing';
import { assistantThreadsDeleter } from './assistant-threads';
import { assistantsRoutes } from './assistants.routes';

export const TEST_SECRET = 'test-internal-secret-123';

const reply = (text: string) => () => ({ messages: [new AIMessage(text)] });

/** `chat`: one node; `research`: a subgraph plus a node, with a zod context schema (`model`). */
export function testGraphs() {
  const inner = new StateGraph(MessagesAnnotation)
    .addNode('search', reply('found'))
    .addNode('summarise', reply('summary'))
    .addEdge(START, 'search')
    .addEdge('search', 'summarise')
    .compile();
  return {
    chat: { source: new StateGraph(MessagesAnnotation).addNode('respond', reply('hi')).addEdge(START, 'respond'), description: 'Says hi' },
    research: {
      source: new StateGraph(MessagesAnnotation, { context: z.object({ model: z.string().describe('The model to ask') }) })
        .addNode('dig', inner)
        .addNode('answer', reply('done'))
        .addEdge(START, 'dig')
        .addEdge('dig', 'answer'),
    },
  };
}

export interface TestAssistantsApp {
  app: Express;
  db: AgentServerDatabase;
  assistants: AssistantRepository;
  registry: GraphRegistry;
  threads: ThreadRepository;
  close(): Promise<void>;
}

/**
 * The assistants routes in the real HTTP app (gateway signature required, FastAPI errors) on a test database of
 * their own (Postgres when DATABASE_URL is set, else in-memory PGlite), system assistants synced as at start-up.
 */
export async function startTestAssistantsApp(): Promise<TestAssistantsApp> {
  const target = await createTestDatabase();
  const db = await openAgentServerDatabase({ url: target.url, dataDir: target.dataDir });
  await db.migrate();
  const registry = createGraphRegistry({ graphs: testGraphs(), checkpointer: new PrismaCheckpointSaver(db.prisma) });
  const assistants = createAssistantRepository(db.prisma);
  const threads = createThreadRepository(db.prisma);
  await syncSystemAssistants(assistants, registry, { chat: { config: { configurable: { temperature: 0 } } } });
  const { app } = createHttpApp({
    service: 'agent-server',
    logger: silentLogger,
    identity: { secret: TEST_SECRET },
    routes: (routes) => {
      mountRoutes(routes, assistantsRoutes({ assistants, registry, deleteThreadsOf: assistantThreadsDeleter(threads) }));
    },
  });
  return {
    app,
    db,
    assistants,
    registry,
    threads,
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
