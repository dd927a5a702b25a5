import { Annotation, StateGraph } from '@langchain/langgraph';
import { openAgentServerDatabase, type AgentServerDatabase } from '../agent-server-database';
import { PrismaCheckpointSaver } from './prisma-checkpoint.saver';

const State = Annotation.Root({
  items: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
  turns: Annotation<number>({ reducer: (_left, right) => right, default: () => 0 }),
});

describe('a StateGraph checkpointed by PrismaCheckpointSaver (in-memory PGlite)', () => {
  let db: AgentServerDatabase;

  beforeAll(async () => {
    db = await openAgentServerDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db.close());

  it('resumes a thread across invocations and keeps its history', async () => {
    const graph = new StateGraph(State)
      .addNode('echo', (state) => ({ items: [`echo ${state.items.at(-1)}`], turns: state.turns + 1 }))
      .addEdge('__start__', 'echo')
      .addEdge('echo', '__end__')
      .compile({ checkpointer: new PrismaCheckpointSaver(db.prisma) });
    const config = { configurable: { thread_id: 'graph-thread' } };

    await graph.invoke({ items: ['a'] }, config);
    const second = await graph.invoke({ items: ['b'] }, config);

    expect(second).toEqual({ items: ['a', 'echo a', 'b', 'echo b'], turns: 2 });
    // A fresh saver on the same database sees the same state: it lives in the database, not in memory.
    const reopened = new StateGraph(State)
      .addNode('echo', () => ({}))
      .addEdge('__start__', 'echo')
      .compile({ checkpointer: new PrismaCheckpointSaver(db.prisma) });
    expect((await reopened.getState(config)).values).toEqual(second);
    const history = [];
    for await (const snapshot of reopened.getStateHistory(config)) history.push(snapshot);
    expect(history.length).toBeGreaterThanOrEqual(6);
  });
});
