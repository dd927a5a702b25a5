import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AuthenticationError } from '@platform/errors';

const PROBES = new Set(['/ok', '/ready']);

/**
 * The dev server reachable from other machines (`dev --allow-remote`): every request but the probes sends the
 * key as `X-Api-Key`.
 */
export function devApiKey(key: string): RequestHandler {
  const expected = Buffer.from(key);
  return (req, _res, next) => {
    if (PROBES.has(req.path)) return next();
    const given = Buffer.from(req.header('x-api-key') ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    next(new AuthenticationError('Missing or invalid X-Api-Key'));
  };
}
