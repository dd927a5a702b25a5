import { createHmac } from 'node:crypto';
import { IdentityHeaders, SIGNATURE_MAX_AGE_MS, signIdentity, verifyIdentity } from './trusted-identity';

const secret = 'internal-secret-0123456789';
const identity = { tenantId: 't-1', organizationId: 'o-1', subject: 'key-1' };
const at = (now: number, deploymentId?: string) => ({ now, deploymentId });

describe('trusted identity headers', () => {
  it('round-trips a signed identity, with the deployment it was signed for', () => {
    const headers = signIdentity(secret, identity, 'req-1', at(1_000_000, 'dep-1'));
    expect(verifyIdentity(secret, headers, 'req-1', 1_000_500)).toEqual({ ok: true, identity, deploymentId: 'dep-1' });
    const platform = signIdentity(secret, identity, 'req-1', at(1_000_000));
    expect(verifyIdentity(secret, platform, 'req-1', 1_000_500)).toEqual({ ok: true, identity, deploymentId: '' });
  });

  it('refuses missing signatures', () => {
    expect(verifyIdentity(secret, { 'x-tenant-id': 't-1' }, 'req-1')).toEqual({ ok: false, reason: 'missing gateway signature' });
  });

  it('refuses a tampered tenant or deployment, another secret, another request id', () => {
    const headers = signIdentity(secret, identity, 'req-1', at(1_000_000, 'dep-1'));
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.tenant]: 't-2' }, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.deployment]: 'dep-2' }, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.deployment]: undefined }, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity('another-secret-0123456789', headers, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity(secret, headers, 'req-2', 1_000_000).ok).toBe(false);
  });

  it('does not fall back to v1 when a v2 signature is present but wrong', () => {
    const headers = signIdentity(secret, identity, 'req-1', at(1_000_000, 'dep-1'));
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.signatureV2]: 'v2=forged' }, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.signatureV2]: ['a', 'b'] }, 'req-1', 1_000_000).ok).toBe(false);
  });

  // Rolling upgrades: the previous release signs and verifies only v1 (`x-platform-signature` over tenant,
  // organization, subject), as reproduced here byte for byte.
  it('stays verifiable by a v1-only verifier, and verifies a v1-only signer (deployment unknown)', () => {
    const v1 = (timestamp: string, requestId: string) =>
      `v1=${createHmac('sha256', secret).update(['v1', timestamp, 't-1', 'o-1', 'key-1', requestId].join('\n')).digest('base64url')}`;
    const headers = signIdentity(secret, identity, 'req-1', at(1_000_000, 'dep-1'));
    expect(headers[IdentityHeaders.signature]).toBe(v1('1000000', 'req-1'));
    const oldGateway = {
      [IdentityHeaders.tenant]: 't-1',
      [IdentityHeaders.organization]: 'o-1',
      [IdentityHeaders.subject]: 'key-1',
      [IdentityHeaders.timestamp]: '1000000',
      [IdentityHeaders.signature]: v1('1000000', 'req-1'),
    };
    expect(verifyIdentity(secret, oldGateway, 'req-1', 1_000_000)).toEqual({ ok: true, identity, deploymentId: undefined });
  });

  it('refuses stale and malformed timestamps', () => {
    const headers = signIdentity(secret, identity, 'req-1', at(1_000_000));
    expect(verifyIdentity(secret, headers, 'req-1', 1_000_000 + SIGNATURE_MAX_AGE_MS + 1)).toEqual({
      ok: false,
      reason: 'expired gateway signature',
    });
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.timestamp]: 'soon' }, 'req-1').ok).toBe(false);
  });

  it('refuses repeated headers', () => {
    const headers = signIdentity(secret, identity, 'req-1');
    const { [IdentityHeaders.signatureV2]: _v2, ...v1Only } = headers;
    expect(verifyIdentity(secret, { ...v1Only, [IdentityHeaders.signature]: ['a', 'b'] }, 'req-1').ok).toBe(false);
  });
});
