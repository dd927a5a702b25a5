import { createHmac, timingSafeEqual } from 'node:crypto';
import { NotAllowedError } from '@platform/errors';

/** What a download link grants: one attachment of one run of one workspace. */
export interface AttachmentClaims {
  tenantId: string;
  runId: string;
  name: string;
}

export interface AttachmentLinksOptions {
  /** The service's internal secret; links are signed with a key derived from it for this purpose only. */
  secret: string;
  /** How long a link works. */
  ttlSeconds: number;
  now?: () => number;
}

/** Where links point, under the public base URL (the gateway serves it without an API key). */
export const ATTACHMENT_DOWNLOAD_PATH = '/api/v1/public/download';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Pre-signed download links for run attachments, as self-hosted LangSmith hands them out:
 * `<base>/api/v1/public/download?jwt=<HS256 JWT>`. Whoever holds a link may read that one attachment until it
 * expires, with no API key (SDKs fetch them without one).
 */
export class AttachmentLinks {
  private readonly key: Buffer;
  private readonly ttlSeconds: number;
  private readonly now: () => number;

  constructor(options: AttachmentLinksOptions) {
    this.key = createHmac('sha256', options.secret).update('tracing: attachment download links').digest();
    this.ttlSeconds = options.ttlSeconds;
    this.now = options.now ?? Date.now;
  }

  /** A link to an attachment, under `baseUrl` (scheme, host and any prefix, no trailing slash). */
  url(baseUrl: string, claims: AttachmentClaims): string {
    return `${baseUrl}${ATTACHMENT_DOWNLOAD_PATH}?jwt=${this.sign(claims)}`;
  }

  sign(claims: AttachmentClaims): string {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const payload = Buffer.from(JSON.stringify({ tid: claims.tenantId, rid: claims.runId, name: claims.name, exp })).toString('base64url');
    return `${HEADER}.${payload}.${this.signature(`${HEADER}.${payload}`)}`;
  }

  /** The claims of a link's token; NotAllowedError (403) when it is not one of ours or has expired. */
  verify(token: string): AttachmentClaims {
    const [header, payload, signature, ...rest] = token.split('.');
    const expected = header === HEADER && payload !== undefined && rest.length === 0 ? this.signature(`${header}.${payload}`) : undefined;
    if (!expected || !signature || !sameText(signature, expected)) throw new NotAllowedError('Invalid download link');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8')) as { tid: string; rid: string; name: string; exp: number };
    if (!(claims.exp * 1000 > this.now())) throw new NotAllowedError('Download link expired');
    return { tenantId: claims.tid, runId: claims.rid, name: claims.name };
  }

  private signature(input: string): string {
    return createHmac('sha256', this.key).update(input).digest('base64url');
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
