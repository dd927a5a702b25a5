import { agentCard } from './a2a-card';

describe('A2A agent card', () => {
  it('describes an assistant as one skill, with its own description or a default naming the graph', () => {
    const assistant = {
      assistant_id: 'a-1',
      graph_id: 'agent',
      name: 'agent',
      description: null,
      config: {},
      context: {},
      metadata: {},
      version: 1,
      created_at: '',
      updated_at: '',
    };
    const card = agentCard(assistant, { baseUrl: 'https://h/p', version: '1.2.3' });
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'https://h/p/a2a/a-1',
      version: '1.2.3',
      preferredTransport: 'JSONRPC',
      skills: [{ id: 'agent-main', name: 'agent graph', tags: ['langgraph', 'agent'] }],
    });
    expect(card.description).toContain("'agent' graph");
    expect(agentCard({ ...assistant, description: 'Books trips' }, { baseUrl: 'https://h', version: '1' }).description).toBe('Books trips');
    expect(agentCard(assistant, { baseUrl: 'https://h', version: '1', graphDescription: 'From langgraph.json' }).description).toBe('From langgraph.json');
  });
});
