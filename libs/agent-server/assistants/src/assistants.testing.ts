import { AIMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createAssistantRepository, openAgentServerDatabase, type AgentServerDatabase, type AssistantRepository } from '@platform/agent-server-data-access';
import { openTestAgentServerDatabase } from '@platform/agent-server-data-access/testing';
import { createGraphRegistry, type GraphRegistry } from '@platform/agent-server-graphs';

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
 * A migrated agent-server database of the test's own (`openTestAgentServerDatabase`: a scratch Postgres database when
 * DATABASE_URL is set, else in-memory PGlite) with the assistants repository and the test graphs.
 */
export async function openAssistantsFixture(): Promise<AssistantsFixture> {
  const { db, url, close } = await openTestAgentServerDatabase();
  const replicas: AgentServerDatabase[] = [];
  return {
    db,
    assistants: createAssistantRepository(db.prisma),
    registry: testGraphRegistry(),
    async openReplica() {
      if (!url) return createAssistantRepository(db.prisma);
      const replica = await openAgentServerDatabase({ url, dataDir: '' });
      replicas.push(replica);
      return createAssistantRepository(replica.prisma);
    },
    async close() {
      for (const replica of replicas) await replica.close();
      await close();
    },
  };
}
