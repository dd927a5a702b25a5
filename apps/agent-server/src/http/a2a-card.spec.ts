import { agentCard, publicBaseUrl } from './a2a-card';

const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

describe('A2A agent card', () => {
  it('takes the public base URL from the forwarded headers, else from the request', () => {
    const own = { protocol: 'http', host: '10.0.0.5:8080' };
    expect(publicBaseUrl(headers({}), own)).toBe('http://10.0.0.5:8080');
    expect(
      publicBaseUrl(headers({ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'api.example.com', 'x-forwarded-prefix': '/deployments/d-1/' }), own),
    ).toBe('https://api.example.com/deployments/d-1');
    // A prefix that is not a plain path is ignored.
    expect(publicBaseUrl(headers({ 'x-forwarded-prefix': '//evil.example.com' }), own)).toBe('http://10.0.0.5:8080');
    expect(publicBaseUrl(headers({ 'x-forwarded-prefix': 'no-slash' }), own)).toBe('http://10.0.0.5:8080');
  });

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
