import { InternalError, PlatformError, TooManyRequestsError, UnavailableError, isPlatformError, type ErrorCode } from './platform-errors';
import { createError } from './create-error';
import { ValidationError, type ValidationIssue } from './validation-error';

/** The one table from error codes to HTTP statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  input: 400,
  validation: 422,
  authentication: 401,
  not_allowed: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  deadline_exceeded: 504,
  not_implemented: 501,
  internal: 500,
};

export interface HttpErrorResponse {
  status: number;
  body: { detail: string | ValidationIssue[] };
  /** The error is ours (5xx): log it with its stack; the body says nothing of it. */
  internal: boolean;
  /** Seconds for a `Retry-After` header (a 503: the dependency may be back by then; a 429: the limit allows more then). */
  retryAfterSeconds?: number;
  /** Headers the answer carries (`Retry-After` of a 429 or a 503). */
  headers?: Record<string, string>;
}

/** Renders any thrown value as `{"detail": ...}` with its status; unknown errors become an opaque 500. */
export function toHttpError(err: unknown): HttpErrorResponse {
  if (err instanceof ValidationError) {
    return { status: 422, body: { detail: err.issues }, internal: false };
  }
  if (err instanceof TooManyRequestsError && err.retryAfterSeconds !== undefined) {
    return { status: 429, body: { detail: err.message }, internal: false, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  }
  if (isPlatformError(err) && !(err instanceof InternalError)) {
    const status = HTTP_STATUS[err.code];
    const internal = status >= 500 && err.code !== 'unavailable' && err.code !== 'not_implemented';
    if (err instanceof UnavailableError && err.retryAfterSeconds !== undefined) {
      return { status, body: { detail: err.message }, internal, retryAfterSeconds: err.retryAfterSeconds, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
    }
    return { status, body: { detail: err.message }, internal };
  }
  return { status: 500, body: { detail: 'Internal Server Error' }, internal: true };
}

/** The inverse mapping, for a gateway or client that receives an HTTP status from a peer. */
export function errorFromHttpStatus(status: number, message: string): PlatformError {
  const entry = (Object.entries(HTTP_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status);
  return createError(entry?.[0] ?? 'internal', message);
}
