import { matchDeploymentHost } from './deployment-host';

describe('matchDeploymentHost', () => {
  const id = '0b3e1f6a-6f1c-4a52-9d7e-0c6a1d2b3c4d';

  it('routes <id>.<domain> with the path unchanged, port and case ignored', () => {
    expect(matchDeploymentHost(`${id}.agents.example.com:8080`, 'agents.example.com', '/threads?x=1')).toEqual({
      rule: { prefix: '/', upstream: 'deployment', auth: 'api-key' },
      deploymentId: id,
      upstreamPath: '/threads?x=1',
    });
    expect(matchDeploymentHost(`${id.toUpperCase()}.Agents.Example.com`, '*.agents.example.com', '/ok')?.deploymentId).toBe(id);
  });

  it('ignores other hosts, the bare domain, nested names and an unset domain', () => {
    expect(matchDeploymentHost('agents.example.com', 'agents.example.com', '/')).toBeUndefined();
    expect(matchDeploymentHost(`a.${id}.agents.example.com`, 'agents.example.com', '/')).toBeUndefined();
    expect(matchDeploymentHost(`${id}.other.com`, 'agents.example.com', '/')).toBeUndefined();
    expect(matchDeploymentHost(`${id}.agents.example.com`, undefined, '/')).toBeUndefined();
    expect(matchDeploymentHost(undefined, 'agents.example.com', '/')).toBeUndefined();
  });
});
