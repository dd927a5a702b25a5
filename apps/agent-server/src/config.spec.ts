import { ConfigError } from '@platform/config';
import { loadAgentServerConfig } from './config';

const KEY = 'deployment-key-0123456789-0123456789';

describe('agent server config', () => {
  it("takes the deployment's key", () => {
    expect(loadAgentServerConfig({ DEPLOYMENT_KEY: KEY, DEPLOYMENT_ID: 'd-1' })).toMatchObject({ DEPLOYMENT_KEY: KEY, DEPLOYMENT_ID: 'd-1' });
  });

  it('requires it, except on the dev server', () => {
    expect(() => loadAgentServerConfig({})).toThrow(/DEPLOYMENT_KEY: is required/);
    expect(() => loadAgentServerConfig({ DEPLOYMENT_KEY: 'short' })).toThrow(/DEPLOYMENT_KEY: must be at least 32 characters \(got 5 characters\)/);
    expect(loadAgentServerConfig({ LANGGRAPH_DEV: 'true' }).DEPLOYMENT_KEY).toBeUndefined();
  });

  it("refuses the platform's secret, without repeating it", () => {
    const attempt = () => loadAgentServerConfig({ DEPLOYMENT_KEY: KEY, INTERNAL_SECRET: 'platform-secret-0123456789' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/INTERNAL_SECRET: must not be set on an Agent Server .* give it DEPLOYMENT_KEY/);
    expect(attempt).not.toThrow(/platform-secret-0123456789/);
  });
});
