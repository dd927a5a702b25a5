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
  /** The deployment the gateway routed the request to; empty for the platform's own services. */
  deployment: 'x-platform-deployment-id',
  timestamp: 'x-platform-timestamp',
  /** v1: tenant, organization, subject (no deployment); kept so services older than v2 still verify. */
  signature: 'x-platform-signature',
  /** v2: v1's fields and the deployment. */
  signatureV2: 'x-platform-signature-v2',
} as const;

/** Every header a client must not be able to set itself. */
export const TRUSTED_HEADER_NAMES: readonly string[] = Object.values(IdentityHeaders);

/** How long a signature stays valid; bounds the replay of a captured internal request. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

function payloadV1(identity: Identity, timestamp: string, requestId: string): string {
  return ['v1', timestamp, identity.tenantId, identity.organizationId, identity.subject, requestId].join('\n');
}

function payloadV2(identity: Identity, deploymentId: string, timestamp: string, requestId: string): string {
  return ['v2', timestamp, identity.tenantId, identity.organizationId, identity.subject, deploymentId, requestId].join('\n');
}

function hmac(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

export interface SignOptions {
  /** The deployment the request is for (the gateway's `/deployments/{id}` routes); none for platform services. */
  deploymentId?: string;
  now?: number;
}

/**
 * The headers that carry `identity` to a service, signed with the internal secret. Both signatures go out: v2
 * binds the request to its deployment, v1 keeps services of the previous release verifying during a rolling
 * upgrade (they read only `x-platform-signature`).
 */
export function signIdentity(secret: string, identity: Identity, requestId: string, options: SignOptions = {}): Record<string, string> {
  const timestamp = String(options.now ?? Date.now());
  const deploymentId = options.deploymentId ?? '';
  return {
    [IdentityHeaders.tenant]: identity.tenantId,
    [IdentityHeaders.organization]: identity.organizationId,
    [IdentityHeaders.subject]: identity.subject,
    [IdentityHeaders.deployment]: deploymentId,
    [IdentityHeaders.timestamp]: timestamp,
    [IdentityHeaders.signature]: `v1=${hmac(secret, payloadV1(identity, timestamp, requestId))}`,
    [IdentityHeaders.signatureV2]: `v2=${hmac(secret, payloadV2(identity, deploymentId, timestamp, requestId))}`,
  };
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * `deploymentId`: the deployment the request was signed for (`''`: none, a platform service's request), or
 * `undefined` when only a v1 signature came (a gateway older than v2, during a rolling upgrade).
 */
export type VerifyResult = { ok: true; identity: Identity; deploymentId: string | undefined } | { ok: false; reason: string };

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks the signed identity headers of an incoming request (header names lower-case, as node gives them). A v2
 * signature, when present, must hold; without one the v1 signature is checked and the deployment is unknown.
 */
export function verifyIdentity(secret: string, headers: HeaderBag, requestId: string, now: number = Date.now()): VerifyResult {
  const read = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? undefined : value;
  };
  const signature = read(IdentityHeaders.signature);
  const signatureV2 = read(IdentityHeaders.signatureV2);
  const timestamp = read(IdentityHeaders.timestamp);
  if ((!signature && !signatureV2) || !timestamp) return { ok: false, reason: 'missing gateway signature' };
  const age = now - Number(timestamp);
  if (!Number.isFinite(age) || Math.abs(age) > SIGNATURE_MAX_AGE_MS) {
    return { ok: false, reason: 'expired gateway signature' };
  }
  const identity: Identity = {
    tenantId: read(IdentityHeaders.tenant) ?? '',
    organizationId: read(IdentityHeaders.organization) ?? '',
    subject: read(IdentityHeaders.subject) ?? '',
  };
  if (signatureV2 !== undefined || headers[IdentityHeaders.signatureV2] !== undefined) {
    const deploymentId = read(IdentityHeaders.deployment) ?? '';
    const expected = `v2=${hmac(secret, payloadV2(identity, deploymentId, timestamp, requestId))}`;
    if (signatureV2 === undefined || !sameSignature(expected, signatureV2)) return { ok: false, reason: 'invalid gateway signature' };
    return { ok: true, identity, deploymentId };
  }
  if (!sameSignature(`v1=${hmac(secret, payloadV1(identity, timestamp, requestId))}`, signature as string)) {
    return { ok: false, reason: 'invalid gateway signature' };
  }
  return { ok: true, identity, deploymentId: undefined };
}
