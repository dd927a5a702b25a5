import { PLATFORM_ONLY_ENV } from '@platform/control-plane-drivers';
import { deploymentKey, signIdentity, verifyIdentity } from '@platform/identity';
import { agentServerEnv } from './deployment-env';

const SECRET = 'platform-internal-secret-0123456789';
const envOf = (deploymentId: string) =>
  agentServerEnv({
    deploymentId,
    tenantId: 'workspace-a',
    deploymentName: 'agent',
    database: { kind: 'postgres', url: 'postgres://tenant@db/deployment_a' },
    tracingKey: 'lsv2_sk_workspace_a',
    secrets: { OPENAI_API_KEY: 'sk-tenant' },
    options: { internalSecret: SECRET, logLevel: 'info', tracingEndpoint: 'http://gateway/api/v1' },
  });

describe('agentServerEnv', () => {
  const D = '3f6c1b8e-0a8d-4a55-9d61-0a3c4e1b2f10';
  const env = envOf(D);

  it('carries no platform secret, in any variable', () => {
    for (const name of PLATFORM_ONLY_ENV) expect(env[name]).toBeUndefined();
    expect(Object.values(env).some((value) => value.includes(SECRET))).toBe(false);
  });

  it("gives the deployment its own key, which verifies the gateway's requests for it and nothing the secret verifies", () => {
    expect(env.DEPLOYMENT_ID).toBe(D);
    expect(env.DEPLOYMENT_KEY).toBe(deploymentKey(SECRET, D));
    expect(envOf('9b1f0c77-5e2a-4c3b-8f8e-1d2c3b4a5f60').DEPLOYMENT_KEY).not.toBe(env.DEPLOYMENT_KEY);
    const gateway = signIdentity(deploymentKey(SECRET, D), { tenantId: 'workspace-a', organizationId: 'o', subject: 'k' }, 'r', { deploymentId: D });
    expect(verifyIdentity(env.DEPLOYMENT_KEY, gateway, 'r').ok).toBe(true);
    const forged = signIdentity(env.DEPLOYMENT_KEY, { tenantId: 'workspace-b', organizationId: 'o', subject: 'k' }, 'r');
    expect(verifyIdentity(SECRET, forged, 'r').ok).toBe(false);
  });

  it('adds its keys under former secrets during a rotation window, and only then', () => {
    expect(env.DEPLOYMENT_KEYS_PREVIOUS).toBeUndefined();
    const rotating = agentServerEnv({
      deploymentId: D,
      tenantId: 'workspace-a',
      deploymentName: 'agent',
      database: { kind: 'postgres', url: 'postgres://tenant@db/deployment_a' },
      secrets: {},
      options: { internalSecret: 'new-platform-secret-0123456789', previousSecrets: [SECRET, 'older-secret-0123456789'], logLevel: 'info' },
    });
    expect(rotating.DEPLOYMENT_KEY).toBe(deploymentKey('new-platform-secret-0123456789', D));
    expect(rotating.DEPLOYMENT_KEYS_PREVIOUS).toBe(`${deploymentKey(SECRET, D)},${deploymentKey('older-secret-0123456789', D)}`);
    expect(Object.values(rotating).some((v) => v.includes(SECRET) || v.includes('new-platform-secret'))).toBe(false);
  });

  it('traces with its own workspace-bound key through the gateway', () => {
    expect(env).toMatchObject({ LANGSMITH_TRACING: 'true', LANGSMITH_API_KEY: 'lsv2_sk_workspace_a', LANGSMITH_WORKSPACE_ID: 'workspace-a', OPENAI_API_KEY: 'sk-tenant' });
  });

  it("gives the operator's deployment egress allowlist after the secrets, which cannot widen it", () => {
    expect(env).toMatchObject({ EGRESS_ALLOWED_CIDRS: '', EGRESS_ALLOWED_HOSTS: '' });
    const allowed = agentServerEnv({
      deploymentId: D,
      tenantId: 'workspace-a',
      deploymentName: 'agent',
      database: { kind: 'postgres', url: 'postgres://tenant@db/deployment_a' },
      secrets: { EGRESS_ALLOWED_CIDRS: '0.0.0.0/0', EGRESS_ALLOWED_HOSTS: 'metadata.internal' },
      options: { internalSecret: SECRET, logLevel: 'info', egress: { cidrs: ['10.1.2.0/24', '127.0.0.1/32'], hosts: ['hooks.internal'] } },
    });
    expect(allowed).toMatchObject({ EGRESS_ALLOWED_CIDRS: '10.1.2.0/24,127.0.0.1/32', EGRESS_ALLOWED_HOSTS: 'hooks.internal' });
  });
});
