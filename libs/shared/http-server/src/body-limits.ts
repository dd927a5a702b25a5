import type { RequestHandler, Response } from 'express';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** One route's body limit. `path` is a full path; `:name` segments match any one segment. */
export interface BodyLimitRule {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  bytes: number;
}

/**
 * A service's body limits: one per route, `defaultBytes` for the routes no rule names. Every service reads bodies
 * through `jsonBody()` / `decodeBody()` with the limit of its route, counted while the body streams in (413 the
 * moment it is passed, compressed or decoded), so a limit never depends on who parses the body.
 */
export interface BodyLimits {
  defaultBytes: number;
  routes?: readonly BodyLimitRule[];
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function matches(pattern: string[], path: string[]): boolean {
  return pattern.length === path.length && pattern.every((segment, i) => segment.startsWith(':') || segment === path[i]);
}

/** Puts the body limit of each request's route where `bodyLimitOf` finds it. */
export function bodyLimits(limits: BodyLimits): RequestHandler {
  const rules = (limits.routes ?? []).map((rule) => ({ ...rule, segments: segmentsOf(rule.path) }));
  const methods = new Set(rules.map((rule) => rule.method as string));
  return (req, res, next) => {
    if (!methods.has(req.method)) {
      res.locals.bodyLimit = limits.defaultBytes;
      return next();
    }
    const path = segmentsOf(req.path);
    const rule = rules.find((r) => r.method === req.method && matches(r.segments, path));
    res.locals.bodyLimit = rule?.bytes ?? limits.defaultBytes;
    next();
  };
}

/** The body limit of this request's route (bytes). */
export function bodyLimitOf(res: Response): number {
  const limit = res.locals.bodyLimit as number | undefined;
  if (limit === undefined) throw new Error('bodyLimits() must run before a body is read');
  return limit;
}

/** `10 MiB`, `100 KiB`: a limit as the README writes it. */
export function formatBytes(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
