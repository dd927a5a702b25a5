import { matchRoute } from './route-table';

describe('matchRoute', () => {
  it.each([
    ['/v2/deployments', 'control-plane', 'api-key'],
    ['/v2/deployments/abc/revisions?limit=2', 'control-plane', 'api-key'],
    ['/v2/auth/callback/github?code=x&state=y', 'control-plane', 'public'],
    ['/api/v1/bulk-exports', 'export', 'api-key'],
    ['/api/v1/bulk-exports/destinations', 'export', 'api-key'],
    ['/api/v1/runs/multipart', 'tracing', 'api-key'],
    ['/api/v1/runs?x=1', 'tracing', 'api-key'],
    ['/api/v1/sessions?name=p', 'tracing', 'api-key'],
    ['/api/v1/info', 'tracing', 'api-key'],
    ['/api/v1/public/download?jwt=x.y.z', 'tracing', 'public'],
    ['/api/v2/runs/query', 'tracing', 'api-key'],
    ['/api/v2/runs/0b3e1f6a-6f1c-4a52-9d7e-0c6a1d2b3c4d?project_id=p', 'tracing', 'api-key'],
    ['/api/v2/traces/query', 'tracing', 'api-key'],
    ['/api/v2/traces/0b3e1f6a-6f1c-4a52-9d7e-0c6a1d2b3c4d/runs', 'tracing', 'api-key'],
  ])('%s → %s (%s)', (url, upstream, auth) => {
    const match = matchRoute(url);
    expect(match?.rule).toMatchObject({ upstream, auth });
    expect(match?.upstreamPath).toBe(url);
  });

  it('matches only at segment boundaries', () => {
    expect(matchRoute('/v2x')).toBeUndefined();
    expect(matchRoute('/api/v1/runsx')).toBeUndefined();
    expect(matchRoute('/api/v1/workspaces')).toBeUndefined();
    expect(matchRoute('/api/v1/public')).toBeUndefined();
    expect(matchRoute('/api/v2/threads/query')).toBeUndefined();
    expect(matchRoute('/api/v2/runsx')).toBeUndefined();
    expect(matchRoute('/')).toBeUndefined();
  });

  it('extracts the deployment id and strips the prefix for the agent server', () => {
    expect(matchRoute('/deployments/d-1/threads/t-1/runs?limit=5')).toMatchObject({
      rule: { upstream: 'deployment' },
      deploymentId: 'd-1',
      upstreamPath: '/threads/t-1/runs?limit=5',
    });
    expect(matchRoute('/deployments/d-1')).toMatchObject({ deploymentId: 'd-1', upstreamPath: '/', removedPrefix: '/deployments/d-1' });
    expect(matchRoute('/deployments/d-1?x=1')).toMatchObject({ deploymentId: 'd-1', upstreamPath: '/?x=1' });
    expect(matchRoute('/deployments')).toBeUndefined();
    expect(matchRoute('/deployments/%E0%A4%A')).toBeUndefined();
  });
});
