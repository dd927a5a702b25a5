import { AIMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createAssistantRepository, openAgentServerDatabase, type AgentServerDatabase, type AssistantRepository } from '@platform/agent-server-data-access';
import { createGraphRegistry, type GraphRegistry } from '@platform/agent-server-graphs';
import { createScratchPostgresDatabase } from '@platform/prisma';

const reply = (text: string) => () => ({ messages: [new AIMessage(text)] });

/** `chat`: one node; `research`: a subgraph and a second node; `configured`: a factory that names its model. */
export function testGraphRegistry(): GraphRegistry {
  const inner = new StateGraph(MessagesAnnotation)
    .addNode('search', reply('found'))
    .addNode('summarise', reply('summary'))
    .addEdge(START, 'search')
    .addEdge('search', 'summarise')
    .compile();
  return createGraphRegistry({
    checkpointer: new MemorySaver(),
    graphs: {
      chat: { source: new StateGraph(MessagesAnnotation).addNode('respond', reply('hi')).addEdge(START, 'respond'), description: 'Says hi' },
      research: {
        source: new StateGraph(MessagesAnnotation).addNode('dig', inner).addNode('answer', reply('done')).addEdge(START, 'dig').addEdge('dig', 'answer'),
      },
      configured: {
        source: (config: RunnableConfig) =>
          new StateGraph(MessagesAnnotation).addNode(`ask_${String(config.configurable?.model ?? 'default')}`, reply('ok')).addEdge(START, `ask_${String(config.configurable?.model ?? 'default')}`),
      },
    },
  });
}

export interface AssistantsFixture {
  db: AgentServerDatabase;
  assistants: AssistantRepository;
  registry: GraphRegistry;
  /** Another client on the same database (a second replica) when on Postgres; the same one on PGlite. */
  openReplica(): Promise<AssistantRepository>;
  close(): Promise<void>;
}

/**
 * A migrated agent-server database of the test's own (a scratch Postgres database when DATABASE_URL is set, else
 * in-memory PGlite) with the assistants repository and the test graphs.
 * (Domain libs may not import @platform/testing, hence the scratch database from @platform/prisma.)
 */
export async function openAssistantsFixture(): Promise<AssistantsFixture> {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  const db = await openAgentServerDatabase({ url: scratch?.url, dataDir: 'memory://' });
  await db.migrate();
  const replicas: AgentServerDatabase[] = [];
  return {
    db,
    assistants: createAssistantRepository(db.prisma),
    registry: testGraphRegistry(),
    async openReplica() {
      if (!scratch) return createAssistantRepository(db.prisma);
      const replica = await openAgentServerDatabase({ url: scratch.url, dataDir: '' });
      replicas.push(replica);
      return createAssistantRepository(replica.prisma);
    },
    async close() {
      for (const replica of replicas) await replica.close();
      await db.close();
      await scratch?.drop();
    },
  };
}
