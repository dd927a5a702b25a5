import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { Annotation, interrupt, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { CheckpointsRepository, createThreadRepository, type AgentServerDatabase, type ThreadRepository } from '@platform/agent-server-data-access';
import { openTestAgentServerDatabase } from '@platform/agent-server-data-access/testing';
import { createGraphRegistry, type GraphExport, type GraphRegistry } from '@platform/agent-server-graphs';
import { createThreadStateService, type ThreadStateService } from './thread-state.service';

/** `chat`: answers every human message with `echo: <text>`. */
export function chatGraph() {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (state) => {
      const last = state.messages.at(-1) as BaseMessage;
      return { messages: [new AIMessage({ content: `echo: ${String(last.content)}` })] };
    })
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__');
}

const ApprovalState = Annotation.Root({
  items: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/** `approval`: asks a question (an interrupt) and appends the answer it is resumed with. */
export function approvalGraph() {
  return new StateGraph(ApprovalState)
    .addNode('ask', () => ({ items: [String(interrupt({ question: 'ok?' }))] }))
    .addEdge('__start__', 'ask')
    .addEdge('ask', '__end__');
}

/** `nested`: a parent whose only node is a subgraph that interrupts. */
export function nestedGraph() {
  return new StateGraph(ApprovalState)
    .addNode('inner', approvalGraph().compile())
    .addEdge('__start__', 'inner')
    .addEdge('inner', '__end__');
}

export interface ThreadsFixture {
  db: AgentServerDatabase;
  checkpointer: PrismaCheckpointSaver;
  registry: GraphRegistry;
  threads: ThreadRepository;
  state: ThreadStateService;
  close(): Promise<void>;
}

/**
 * A migrated agent-server database of the test's own (`openTestAgentServerDatabase`: a scratch Postgres database when
 * DATABASE_URL is set, else in-memory PGlite) with the test graphs above compiled through the real registry and
 * checkpointer.
 */
export async function openThreadsFixture(): Promise<ThreadsFixture> {
  const { db, close } = await openTestAgentServerDatabase();
  const checkpointer = new PrismaCheckpointSaver(db.prisma);
  // `AgentGraph` names Pregel's first type parameters only, which a graph with stream transformers does not match.
  const served = (graph: unknown) => ({ source: graph as GraphExport });
  const registry = createGraphRegistry({
    graphs: { chat: served(chatGraph().compile()), approval: served(approvalGraph().compile()), nested: served(nestedGraph().compile()) },
    checkpointer,
  });
  const threads = createThreadRepository(db.prisma);
  const state = createThreadStateService({ registry, checkpointer, threads, checkpoints: new CheckpointsRepository(db.prisma) });
  return {
    db,
    checkpointer,
    registry,
    threads,
    state,
    close,
  };
}

/** Runs a graph on a thread as a run would (the runs lib does this in the server), then caches its state. */
export async function runOnThread(fixture: ThreadsFixture, threadId: string, graphId: string, input: unknown): Promise<void> {
  const graph = await fixture.registry.get(graphId);
  await graph.invoke(input, { configurable: { thread_id: threadId } });
  await fixture.state.refreshThreadCache(threadId);
}
