import type { RequestHandler, Router } from 'express';
import { parseRequest } from '@platform/http-server';
import type { DeclaredRoute } from './route';

export interface MountOptions {
  /** Middleware run before each route's validation (e.g. authentication, a body parser). */
  before?: RequestHandler[];
}

/**
 * Registers declared routes on an express router or app: path parameters, query and body are parsed with the
 * route's schemas (FastAPI-shaped 422 on bad input, `parseRequest`), then the handler runs with the parsed values.
 */
export function mountRoutes(router: Router, routes: readonly DeclaredRoute[], options: MountOptions = {}): void {
  for (const declared of routes) {
    router[declared.method](declared.path, ...(options.before ?? []), ...(declared.before ?? []), async (req, res) => {
      const params = declared.params ? parseRequest(declared.params, req.params, 'path') : undefined;
      const query = declared.query ? parseRequest(declared.query, req.query, 'query') : undefined;
      const body = declared.body ? parseRequest(declared.body, req.body ?? {}, 'body') : undefined;
      await declared.handle({ params, query, body }, req, res);
    });
  }
}
