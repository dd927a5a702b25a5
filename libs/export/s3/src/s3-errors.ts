/** The destination conditions the bulk-export spec names, plus `other` for everything transient. */
export type S3ErrorKind = 'access_denied' | 'invalid_bucket' | 'invalid_key_id' | 'invalid_endpoint' | 'other';

export interface S3ErrorDescription {
  kind: S3ErrorKind;
  /** The S3 operation that failed (PutObject, DeleteObject, ...). */
  operation: string;
  /** The S3 error code (`AccessDenied`, `NoSuchBucket`, ...), or the network/SDK error name. */
  code: string;
  httpStatus?: number;
  /** True for the four destination conditions: retrying will not help, the destination must be fixed. */
  destinationError: boolean;
  /** e.g. `Access denied: PutObject failed with AccessDenied (HTTP 403): Access Denied` */
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

/** Maps an SDK error from `operation` to the spec's destination conditions, naming operation and code. */
export function describeS3Error(operation: string, error: unknown): S3ErrorDescription {
  const err: SdkError = (error && typeof error === 'object' ? error : { message: String(error) }) as SdkError;
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
  const detail = (err.message ?? '').replace(/^AWS SDK error wrapper for /, '').split('\n')[0].slice(0, 300);
  const status = httpStatus ? ` (HTTP ${httpStatus})` : '';
  const what = `${operation} failed with ${code}${status}${detail && detail !== code ? `: ${detail}` : ''}`;
  return {
    kind,
    operation,
    code,
    ...(httpStatus ? { httpStatus } : {}),
    destinationError: kind !== 'other',
    message: kind === 'other' ? what : `${CONDITIONS[kind as Exclude<S3ErrorKind, 'other'>]}: ${what}`,
  };
}
