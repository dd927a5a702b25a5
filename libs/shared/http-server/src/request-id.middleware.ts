import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@platform/logging';

export const REQUEST_ID_HEADER = 'x-request-id';

// Accept a caller's id only if it is short and plain, so it is safe to log and to forward.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the incoming `x-request-id` (or makes one), echoes it, and gives the request a child logger (`res.locals.logger`). */
export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    res.locals.requestId = id;
    // Made when first used: most requests log only their access-log line, which names the id itself.
    let child: Logger | undefined;
    Object.defineProperty(res.locals, 'logger', {
      configurable: true,
      enumerable: true,
      get: () => (child ??= logger.child({ request_id: id })),
      set: (value: Logger) => (child = value),
    });
    next();
  };
}
