import { openAgentServerDatabase, type AgentServerDatabase } from './agent-server-database';

describe('agent-server database (in-memory PGlite)', () => {
  let db: AgentServerDatabase;

  beforeAll(async () => {
    db = await openAgentServerDatabase({ dataDir: 'memory://' });
    await db.migrate();
  });
  afterAll(() => db.close());

  it('stores an assistant with the column defaults', async () => {
    const { assistantId } = await db.prisma.assistant.create({ data: { graphId: 'agent', name: 'Agent' } });

    const found = await db.prisma.assistant.findUniqueOrThrow({ where: { assistantId } });
    expect(found).toMatchObject({ graphId: 'agent', config: {}, context: {}, metadata: {}, version: 1, description: null });
  });
});
