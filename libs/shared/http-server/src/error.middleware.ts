import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { InputError, isPlatformError, toHttpError } from '@platform/errors';
import { JsonBodyError } from './json-body.middleware';
import type { RequestContext } from './request-context';
import { RequestBodyError } from './request-body';

/** How express and its parsers mark a client's mistake: a 4xx `status` (http-errors' convention). */
interface StatusError extends Error {
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/**
 * The client's malformed request behind `err`, as the error to answer with (its `status` when not 400): a path
 * that is not valid percent-encoded UTF-8 (the router's URIError), a body that cannot be read or parsed, an
 * http-errors 4xx from a library. Undefined for anything else.
 */
export function malformedRequest(err: unknown): (InputError & { status?: number }) | JsonBodyError | undefined {
  if (err instanceof RequestBodyError || err instanceof JsonBodyError) return err;
  if (err instanceof URIError) {
    const raw = /'(.*)'/.exec(err.message)?.[1];
    return new InputError(`Malformed path: ${raw ? `"${raw}" is` : 'a segment is'} not valid percent-encoded UTF-8`);
  }
  if (isPlatformError(err) || !(err instanceof Error)) return undefined;
  const status = (err as StatusError).status ?? (err as StatusError).statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const message = (err as StatusError).expose ? err.message : (STATUS_CODES[status] ?? 'Bad Request');
  return Object.assign(new InputError(message), { status });
}

function errorCause(err: unknown): string | undefined {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : undefined;
}

/** `404 {"detail": "Not Found"}` for any path no route took. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not Found' });
};

/**
 * The one place an HTTP response is made from a thrown error. Malformed requests (bad path encoding, unreadable
 * or oversized bodies) are the client's: answered 4xx naming the problem and logged at warn, never as a 500.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const malformed = malformedRequest(err);
  const mapped: unknown = malformed ?? err;
  const { status, body, internal, headers } = toHttpError(mapped);
  const overrideStatus = (mapped as { status?: unknown }).status;
  const { logger } = res.locals as RequestContext;
  if (internal) logger.error({ err, method: req.method, path: req.originalUrl }, 'request failed');
  else if (malformed) logger.warn({ reason: malformed.message, method: req.method, path: req.originalUrl }, 'malformed request refused');
  else if (status === 503) logger.warn({ reason: body.detail, cause: errorCause(err), method: req.method, path: req.originalUrl }, 'dependency unavailable');
  // A 503 (the dependency may be back) or a 429 (the limit allows more): the caller may try again after Retry-After.
  if (headers) res.set(headers);
  res.status(typeof overrideStatus === 'number' ? overrideStatus : status).json(body);
};
