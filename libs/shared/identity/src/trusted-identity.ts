import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who the gateway says is calling: the workspace (tenant), its organization and the API key's id. */
export interface Identity {
  tenantId: string;
  organizationId: string;
  subject: string;
}

/** Header names of the trusted identity the gateway injects; clients' copies are stripped before proxying. */
export const IdentityHeaders = {
  tenant: 'x-tenant-id',
  organization: 'x-organization-id',
  subject: 'x-auth-subject',
  timestamp: 'x-platform-timestamp',
  signature: 'x-platform-signature',
} as const;

/** Every header a client must not be able to set itself. */
export const TRUSTED_HEADER_NAMES: readonly string[] = Object.values(IdentityHeaders);

/** How long a signature stays valid; bounds the replay of a captured internal request. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

function payload(identity: Identity, timestamp: string, requestId: string): string {
  return ['v1', timestamp, identity.tenantId, identity.organizationId, identity.subject, requestId].join('\n');
}

function hmac(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

/** The headers that carry `identity` to a service, signed with the internal secret. */
export function signIdentity(
  secret: string,
  identity: Identity,
  requestId: string,
  now: number = Date.now(),
): Record<string, string> {
  const timestamp = String(now);
  return {
    [IdentityHeaders.tenant]: identity.tenantId,
    [IdentityHeaders.organization]: identity.organizationId,
    [IdentityHeaders.subject]: identity.subject,
    [IdentityHeaders.timestamp]: timestamp,
    [IdentityHeaders.signature]: `v1=${hmac(secret, payload(identity, timestamp, requestId))}`,
  };
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export type VerifyResult = { ok: true; identity: Identity } | { ok: false; reason: string };

/** Checks the signed identity headers of an incoming request (header names lower-case, as node gives them). */
export function verifyIdentity(
  secret: string,
  headers: HeaderBag,
  requestId: string,
  now: number = Date.now(),
): VerifyResult {
  const read = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? undefined : value;
  };
  const signature = read(IdentityHeaders.signature);
  const timestamp = read(IdentityHeaders.timestamp);
  if (!signature || !timestamp) return { ok: false, reason: 'missing gateway signature' };
  const age = now - Number(timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > SIGNATURE_MAX_AGE_MS) {
    return { ok: false, reason: 'expired gateway signature' };
  }
  const identity: Identity = {
    tenantId: read(IdentityHeaders.tenant) ?? '',
    organizationId: read(IdentityHeaders.organization) ?? '',
    subject: read(IdentityHeaders.subject) ?? '',
  };
  const expected = Buffer.from(`v1=${hmac(secret, payload(identity, timestamp, requestId))}`);
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'invalid gateway signature' };
  }
  return { ok: true, identity };
}
