import { deploymentJson, deploymentUrl } from './deployment-json';
import type { Deployment } from '@platform/control-plane-data-access';
import { repoUrlAllowed } from './deployment-rules';

const deployment: Deployment = {
  id: '5b0f8a7c-1d2e-4f3a-9b8c-7d6e5f4a3b2c',
  tenantId: 't',
  organizationId: null,
  name: 'agent',
  source: 'github',
  sourceConfig: { repo_url: 'https://github.com/acme/agent', custom_url: 'https://user-set.example.com' },
  sourceRevisionConfig: { repo_ref: 'main' },
  status: 'READY',
  upstreamUrl: 'http://127.0.0.1:4000',
  latestRevisionId: 'r2',
  activeRevisionId: 'r1',
  secretNames: ['A', 'B'],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-02T00:00:00Z'),
};

describe('deployment JSON', () => {
  it('shows where the deployment is served as custom_url: by path through the gateway, or by host name', () => {
    expect(deploymentUrl(deployment.id, { publicUrl: 'https://agents.example.com/' })).toBe(`https://agents.example.com/deployments/${deployment.id}`);
    expect(deploymentUrl(deployment.id, { publicUrl: 'http://127.0.0.1:8080', wildcardDomain: 'dep.example.com' })).toBe(`http://${deployment.id}.dep.example.com`);
    expect(deploymentUrl(deployment.id, {})).toBeNull();
    expect(deploymentJson(deployment, { publicUrl: 'https://agents.example.com' }).source_config.custom_url).toBe(`https://agents.example.com/deployments/${deployment.id}`);
  });

  it('names secrets without values and never shows the upstream', () => {
    const json = deploymentJson(deployment);
    expect(json).toMatchObject({ secrets: [{ name: 'A' }, { name: 'B' }], latest_revision_id: 'r2', active_revision_id: 'r1', created_at: '2026-01-01T00:00:00.000Z' });
    expect(JSON.stringify(json)).not.toContain('127.0.0.1:4000');
  });

  it('allows repositories by prefix only, and never option-like URLs', () => {
    expect(repoUrlAllowed('https://github.com/acme/x', { allowedRepoUrls: ['https://github.com/'] })).toBe(true);
    expect(repoUrlAllowed('https://gitlab.com/acme/x', { allowedRepoUrls: ['https://github.com/'] })).toBe(false);
    expect(repoUrlAllowed('file:///srv/git/x', { allowedRepoUrls: ['*'] })).toBe(true);
    expect(repoUrlAllowed('--upload-pack=evil', { allowedRepoUrls: ['*'] })).toBe(false);
  });
});
