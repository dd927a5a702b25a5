import type { ErrorRequestHandler, RequestHandler } from 'express';
import { InputError, ValidationError, toHttpError } from '@platform/errors';
import type { RequestContext } from './request-context';

/** Errors raised by express' body parsers carry a `type` and a status. */
interface BodyParserError extends Error {
  type?: string;
  status?: number;
  body?: string;
}

function fromBodyParser(err: BodyParserError): unknown {
  switch (err.type) {
    case 'entity.parse.failed':
      return new ValidationError([{ loc: ['body', 0], msg: `JSON decode error: ${err.message}`, type: 'json_invalid' }]);
    case 'entity.too.large':
      return Object.assign(new InputError('Request body is too large'), { status: 413 });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return Object.assign(new InputError(err.message), { status: 415 });
    case 'request.aborted':
      return new InputError('Request aborted');
    default:
      return err;
  }
}

/** `404 {"detail": "Not Found"}` for any path no route took. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not Found' });
};

/** The one place an HTTP response is made from a thrown error. */
export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const mapped = fromBodyParser(err as BodyParserError);
  const { status, body, internal } = toHttpError(mapped);
  const overrideStatus = (mapped as { status?: number }).status;
  const { logger } = res.locals as RequestContext;
  if (internal) logger.error({ err, method: req.method, path: req.originalUrl }, 'request failed');
  res.status(typeof overrideStatus === 'number' ? overrideStatus : status).json(body);
};
