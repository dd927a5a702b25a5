import { IdentityHeaders, SIGNATURE_MAX_AGE_MS, signIdentity, verifyIdentity } from './trusted-identity';

const secret = 'internal-secret-0123456789';
const identity = { tenantId: 't-1', organizationId: 'o-1', subject: 'key-1' };

describe('trusted identity headers', () => {
  it('round-trips a signed identity', () => {
    const headers = signIdentity(secret, identity, 'req-1', 1_000_000);
    expect(verifyIdentity(secret, headers, 'req-1', 1_000_500)).toEqual({ ok: true, identity });
  });

  it('refuses missing signatures', () => {
    expect(verifyIdentity(secret, { 'x-tenant-id': 't-1' }, 'req-1')).toEqual({ ok: false, reason: 'missing gateway signature' });
  });

  it('refuses a tampered tenant, another secret, another request id', () => {
    const headers = signIdentity(secret, identity, 'req-1', 1_000_000);
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.tenant]: 't-2' }, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity('another-secret-0123456789', headers, 'req-1', 1_000_000).ok).toBe(false);
    expect(verifyIdentity(secret, headers, 'req-2', 1_000_000).ok).toBe(false);
  });

  it('refuses stale and malformed timestamps', () => {
    const headers = signIdentity(secret, identity, 'req-1', 1_000_000);
    expect(verifyIdentity(secret, headers, 'req-1', 1_000_000 + SIGNATURE_MAX_AGE_MS + 1)).toEqual({
      ok: false,
      reason: 'expired gateway signature',
    });
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.timestamp]: 'soon' }, 'req-1').ok).toBe(false);
  });

  it('refuses repeated headers', () => {
    const headers = signIdentity(secret, identity, 'req-1');
    expect(verifyIdentity(secret, { ...headers, [IdentityHeaders.signature]: ['a', 'b'] }, 'req-1').ok).toBe(false);
  });
});
