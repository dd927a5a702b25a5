/** The destination conditions the bulk-export spec names, plus `other` for everything transient. */
export type S3ErrorKind = 'access_denied' | 'invalid_bucket' | 'invalid_key_id' | 'invalid_endpoint' | 'other';

export interface S3ErrorDescription {
  kind: S3ErrorKind;
  /** The S3 operation that failed (PutObject, DeleteObject, ...). */
  operation: string;
  /**
   * The S3 error code when it is a known one (`AccessDenied`, `NoSuchBucket`, ...); otherwise `Unreachable` (no
   * answer), `NotS3`, `UnexpectedResponse`, `EgressRefused` or `AmbientCredentialsRefused`.
   */
  code: string;
  httpStatus?: number;
  /** True for the four destination conditions: retrying will not help, the destination must be fixed. */
  destinationError: boolean;
  /** e.g. `Access denied: PutObject failed with AccessDenied (HTTP 403)`: never the remote body nor a raw network error. */
  message: string;
}

const CONDITIONS: Record<Exclude<S3ErrorKind, 'other'>, string> = {
  access_denied: 'Access denied',
  invalid_bucket: 'Bucket is not valid',
  invalid_key_id: 'Key ID you provided does not exist',
  invalid_endpoint: 'Invalid endpoint',
};

const BY_CODE: Record<string, Exclude<S3ErrorKind, 'other'>> = {
  AccessDenied: 'access_denied',
  AllAccessDisabled: 'access_denied',
  AccountProblem: 'access_denied',
  SignatureDoesNotMatch: 'access_denied',
  InvalidToken: 'access_denied',
  ExpiredToken: 'access_denied',
  TokenRefreshRequired: 'access_denied',
  InvalidObjectState: 'access_denied',
  NoSuchBucket: 'invalid_bucket',
  InvalidBucketName: 'invalid_bucket',
  PermanentRedirect: 'invalid_bucket',
  AuthorizationHeaderMalformed: 'invalid_bucket',
  InvalidAccessKeyId: 'invalid_key_id',
  NotImplemented: 'invalid_endpoint',
};

// Cannot reach anything at that address: the endpoint itself is wrong.
const UNREACHABLE = new Set(['ENOTFOUND', 'ECONNREFUSED', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO']);

const HTTP_NAMES: Record<number, string> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed' };

interface SdkError {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined>; statusCode?: number };
  cause?: unknown;
}

function errorCode(err: SdkError): string {
  return err.Code || err.code || err.name || 'Error';
}

// The SDK wraps network errors ("AWS SDK error wrapper for Error: connect ECONNREFUSED ...") and drops
// their `code`; recover it from the message.
function networkCode(err: SdkError): string | undefined {
  const cause = err.cause as SdkError | undefined;
  if (cause && typeof cause === 'object' && cause.code) return cause.code;
  if (err.code && /^E[A-Z]+$|^ERR_|CERT/.test(err.code)) return err.code;
  return /\b(E[A-Z]{4,}|ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)\b/.exec(err.message ?? '')?.[1];
}

// An HTTP answer that is not S3: an error body that is not XML, or one the SDK could not parse at all.
function looksLikeNonS3Response(err: SdkError, code: string): boolean {
  const headers = err.$response?.headers ?? {};
  const type = Object.entries(headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1] ?? '';
  if (type && !/xml/i.test(type)) return true;
  return /deserializ|char '.' is not expected|non-whitespace before first tag/i.test(err.message ?? '') || code === 'SyntaxError';
}

// Codes S3 (and S3-compatible stores) answer that the platform names back; any other code a server sends is not
// repeated (it could be anything a server chose to say).
const KNOWN_CODES = new Set([
  ...Object.keys(BY_CODE),
  'InternalError',
  'ServiceUnavailable',
  'SlowDown',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'NoSuchKey',
  'NoSuchUpload',
  'InvalidPart',
  'InvalidPartOrder',
  'EntityTooSmall',
  'EntityTooLarge',
  'BadDigest',
  'InvalidDigest',
  'MalformedXML',
  'InvalidArgument',
  'InvalidRequest',
  'PreconditionFailed',
  'MissingContentLength',
  'OperationAborted',
  ...Object.values(HTTP_NAMES),
]);

function cause(err: SdkError, name: string): (SdkError & Error) | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as SdkError).cause, depth++) {
    if ((e as Error).name === name) return e as SdkError & Error;
  }
  return undefined;
}

/**
 * Maps an SDK error from `operation` to the spec's destination conditions, naming the operation and, when S3 named
 * one from the known list, its code. Nothing the remote end said (an error body, a non-S3 page) and no raw connection
 * error (refused, reset, timed out: the difference would make the platform a port scanner) reaches the message.
 */
export function describeS3Error(operation: string, error: unknown): S3ErrorDescription {
  const err: SdkError = (error && typeof error === 'object' ? error : { message: String(error) }) as SdkError;
  const refused = cause(err, 'EgressRefusedError');
  if (refused) {
    return { kind: 'invalid_endpoint', operation, code: 'EgressRefused', destinationError: true, message: `Invalid endpoint: ${refused.message}` };
  }
  const ambient = cause(err, 'AmbientCredentialsRefusedError');
  if (ambient) {
    return { kind: 'access_denied', operation, code: 'AmbientCredentialsRefused', destinationError: true, message: `Access denied: ${ambient.message}` };
  }
  const httpStatus = err.$metadata?.httpStatusCode ?? err.$response?.statusCode;
  const network = httpStatus === undefined ? networkCode(err) : undefined;
  let code = network ?? errorCode(err);
  // Bodyless answers (HEAD) leave the SDK with no S3 code; name the HTTP status instead.
  if ((code === 'Unknown' || code === 'UnknownError') && httpStatus) code = HTTP_NAMES[httpStatus] ?? `Http${httpStatus}`;
  let kind = (BY_CODE[code] as S3ErrorKind | undefined) ?? ('other' as S3ErrorKind);
  if (kind === 'other' && network && UNREACHABLE.has(network)) kind = 'invalid_endpoint';
  if (kind === 'other' && httpStatus !== undefined && httpStatus < 500 && looksLikeNonS3Response(err, code)) kind = 'invalid_endpoint';
  // HEAD answers carry no body, so a denied HeadObject arrives as a bare 403 the SDK calls "Unknown"/"Forbidden".
  if (kind === 'other' && httpStatus === 403) kind = 'access_denied';
  if (kind === 'other' && httpStatus === 404 && operation === 'HeadBucket') kind = 'invalid_bucket';
  const status = httpStatus ? ` (HTTP ${httpStatus})` : '';
  let what: string;
  if (httpStatus === undefined) {
    code = 'Unreachable';
    what = `${operation} failed: the destination could not be reached`;
  } else if (kind === 'invalid_endpoint' || !KNOWN_CODES.has(code)) {
    code = kind === 'invalid_endpoint' ? 'NotS3' : 'UnexpectedResponse';
    what = `${operation} failed: the destination answered an error${status}${kind === 'invalid_endpoint' ? ' that is not an S3 answer' : ''}`;
  } else {
    what = `${operation} failed with ${code}${status}`;
  }
  return {
    kind,
    operation,
    code,
    ...(httpStatus ? { httpStatus } : {}),
    destinationError: kind !== 'other',
    // No answer at all reads the same whatever the reason (refused, reset, timed out), transient or not.
    message: kind === 'other' && httpStatus !== undefined ? what : `${CONDITIONS[kind === 'other' ? 'invalid_endpoint' : kind]}: ${what}`,
  };
}
