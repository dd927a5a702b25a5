import path from 'node:path';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { createGraphRegistry, type GraphRegistry } from '../graph-registry';
import { toJsonValue } from '../serialize';
import { loadLangGraphProject } from './load-langgraph-project';

interface WireMessage {
  type: string;
  content: unknown;
  name?: string;
  tool_calls?: { name: string; args: Record<string, unknown>; id: string }[];
  tool_call_id?: string;
}

const configPath = path.resolve(__dirname, '../../../../../examples/react-agent/langgraph.json');

// The deployable example, loaded as a deployment would load it, checkpointed in the agent-server database
// (a scratch Postgres database when DATABASE_URL is set, else in-memory PGlite).
// (Domain libs may not import @platform/testing, hence the scratch database from @platform/prisma.)
describe('examples/react-agent through loadLangGraphProject and PrismaCheckpointSaver', () => {
  let db: AgentServerDatabase;
  let drop: () => Promise<void> = async () => undefined;
  let registry: GraphRegistry;
  const savedKeys = { openai: process.env.OPENAI_API_KEY, anthropic: process.env.ANTHROPIC_API_KEY };

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL?.trim();
    if (!adminUrl && process.env.REQUIRE_SERVICES === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
    const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
    if (scratch) drop = () => scratch.drop();
    db = await openAgentServerDatabase({ url: scratch?.url, dataDir: 'memory://' });
    await db.migrate();
    // No provider key: the example falls back to its deterministic scripted model.
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    const project = await loadLangGraphProject(configPath);
    registry = createGraphRegistry({ graphs: project.graphs, checkpointer: new PrismaCheckpointSaver(db.prisma) });
  });
  afterAll(async () => {
    if (savedKeys.openai !== undefined) process.env.OPENAI_API_KEY = savedKeys.openai;
    if (savedKeys.anthropic !== undefined) process.env.ANTHROPIC_API_KEY = savedKeys.anthropic;
    await db?.close();
    await drop();
  });

  const messagesOf = async (threadId: string): Promise<WireMessage[]> => {
    const graph = await registry.get('agent');
    const state = await graph.getState({ configurable: { thread_id: threadId } });
    return toJsonValue(state.values.messages) as WireMessage[];
  };

  it('answers with a tool call, the named tool result, then text that uses it, all kept in the checkpoints', async () => {
    const graph = await registry.get('agent');
    const config = { configurable: { thread_id: 'react-agent-weather' } };

    await graph.invoke({ messages: [{ role: 'user', content: 'What is the weather in Paris?' }] }, config);

    const messages = await messagesOf('react-agent-weather');
    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    const [, call, result, answer] = messages;
    expect(call.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
    expect(result).toMatchObject({ name: 'get_weather', tool_call_id: call.tool_calls?.[0].id });
    expect(result.content).toMatch(/in Paris\.$/);
    expect(answer.content).toBe(`Here is the current weather: ${String(result.content)}`);
  });

  it('continues the thread from the database on the next turn and streams the answer token by token', async () => {
    const config = { configurable: { thread_id: 'react-agent-sums' } };
    const graph = await registry.get('agent');
    await graph.invoke({ messages: [{ role: 'user', content: 'weather in Oslo' }] }, config);

    const tokens: string[] = [];
    const stream = await graph.stream({ messages: [{ role: 'user', content: 'and what is 6 * 7?' }] }, { ...config, streamMode: 'messages' });
    for await (const [chunk, metadata] of stream) {
      if (metadata.langgraph_node === 'agent' && typeof chunk.content === 'string' && chunk.content) tokens.push(chunk.content);
    }

    const messages = await messagesOf('react-agent-sums');
    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai', 'human', 'ai', 'tool', 'ai']);
    expect(messages[6]).toMatchObject({ type: 'tool', name: 'calculator', content: '6 * 7 = 42' });
    expect(messages[7].content).toBe('The calculator worked it out: 6 * 7 = 42');
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe(messages[7].content);
  });
});
