import { deploymentKey } from './deployment-key';
import { signIdentity, verifyIdentity } from './trusted-identity';

const platformSecret = 'platform-internal-secret-0123456789';
const identity = { tenantId: 'workspace-a', organizationId: 'org-a', subject: 'key-1' };
const D = '3f6c1b8e-0a8d-4a55-9d61-0a3c4e1b2f10';
const OTHER = '9b1f0c77-5e2a-4c3b-8f8e-1d2c3b4a5f60';

describe('deployment keys', () => {
  it('are stable per deployment, differ between deployments and from the secret', () => {
    expect(deploymentKey(platformSecret, D)).toBe(deploymentKey(platformSecret, D));
    expect(deploymentKey(platformSecret, D)).not.toBe(deploymentKey(platformSecret, OTHER));
    expect(deploymentKey(platformSecret, D)).not.toContain(platformSecret);
    expect(deploymentKey(platformSecret, D)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Rotating the platform secret changes every deployment's key.
    expect(deploymentKey('rotated-internal-secret-0123456789', D)).not.toBe(deploymentKey(platformSecret, D));
    expect(() => deploymentKey(platformSecret, '')).toThrow();
  });

  it("verify the gateway's request for their deployment", () => {
    const key = deploymentKey(platformSecret, D);
    const headers = signIdentity(key, identity, 'req-1', { deploymentId: D });
    expect(verifyIdentity(key, headers, 'req-1')).toMatchObject({ ok: true, identity, deploymentId: D });
  });

  it("fail for another deployment: its key does not verify what D's key signs, nor the reverse", () => {
    const keyD = deploymentKey(platformSecret, D);
    const keyOther = deploymentKey(platformSecret, OTHER);
    // A tenant holding D's key signs a request as if for the other deployment (or its own): the other refuses it.
    expect(verifyIdentity(keyOther, signIdentity(keyD, identity, 'req-1', { deploymentId: OTHER }), 'req-1').ok).toBe(false);
    expect(verifyIdentity(keyOther, signIdentity(keyD, identity, 'req-1', { deploymentId: D }), 'req-1').ok).toBe(false);
    expect(verifyIdentity(keyD, signIdentity(keyOther, identity, 'req-1', { deploymentId: D }), 'req-1').ok).toBe(false);
  });

  it('fail on the platform services (tracing, export, control plane, the gateway verify with the secret itself)', () => {
    const keyD = deploymentKey(platformSecret, D);
    // Whatever identity, deployment or none, a request signed with a deployment key is no platform signature.
    for (const deploymentId of [undefined, '', D]) {
      const forged = signIdentity(keyD, { tenantId: 'workspace-b', organizationId: 'org-b', subject: 'x' }, 'req-1', { deploymentId });
      expect(verifyIdentity(platformSecret, forged, 'req-1')).toEqual({ ok: false, reason: 'invalid gateway signature' });
    }
  });
});
