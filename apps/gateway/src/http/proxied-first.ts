import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import { accessLog, bodyLimits, errorHandler, notFound, requestId, type BodyLimits, type ServiceMetrics } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { RouteMatch } from '@platform/gateway-routing';
import { SERVICE_DOCS } from './docs.routes';

/**
 * What the app serves itself before its proxy middleware: probes, admin API, browser sessions, internal calls, and
 * each service's API description (`/v2/docs` lies inside the control plane's proxied prefix).
 */
const PROBES = new Set(['/ok', '/ready', '/metrics']);
const NO_QUIET_PATHS: ReadonlySet<string> = new Set();
const OWN_PREFIXES = ['/api/v1', '/internal/v1', ...SERVICE_DOCS.flatMap(({ prefix }) => [`${prefix}/docs`, `${prefix}/openapi.json`].map((p) => p.toLowerCase()))];

/**
 * Whether express could route `url` to one of the app's own handlers rather than the proxy. Express matches paths
 * case-insensitively and ignores one trailing slash; a path this says true for always goes through express.
 */
export function mayBeOwnPath(url: string): boolean {
  const end = url.indexOf('?');
  let path = (end === -1 ? url : url.slice(0, end)).toLowerCase();
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return PROBES.has(path) || OWN_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export interface ProxiedFirstOptions {
  app: Express;
  logger: Logger;
  metrics: ServiceMetrics;
  bodyLimits: BodyLimits;
  /** The proxied route of a request, if any. */
  match: (req: IncomingMessage) => RouteMatch | undefined;
  /** The app's proxy middleware for a matched route (authentication, then forwarding). */
  forward: (match: RouteMatch, req: Request, res: Response, next: NextFunction) => Promise<void>;
}

/**
 * The gateway's request listener: proxied routes are served without walking express's middleware stack (the hot
 * path), by the same middleware the app runs for them, in the same order — request id, access log and metrics,
 * body limit, then authentication and forwarding, errors answered by the same error handler. Everything else, and
 * any path express might route to the gateway's own handlers, goes to the express app.
 */
/** The gateway's listener, with the express app behind it (for checks that read its routes). */
export type GatewayListener = RequestListener & { express: Express };

export function proxiedFirst(options: ProxiedFirstOptions): GatewayListener {
  const { app } = options;
  // Every request here is proxied, none is one of the gateway's own probes (those go to express): each gets its line,
  // `GET /deployments/{id}/ok` included (the quiet-path check would see the upstream's `/ok` after the rewrite).
  const [setRequestId, logAccess, setBodyLimit] = [requestId(options.logger), accessLog(options.metrics, NO_QUIET_PATHS, options.logger), bodyLimits(options.bodyLimits)];
  // After the answer has begun, express's final handler logs the error (outside `test`) and cuts the connection.
  const fail = (err: unknown, req: Request, res: Response) =>
    errorHandler(err, req, res, () => {
      if (app.get('env') !== 'test') console.error(err instanceof Error ? (err.stack ?? String(err)) : String(err));
      req.socket.destroy();
    });
  const serve = async (match: RouteMatch, req: Request, res: Response) => {
    const next: NextFunction = (err?: unknown) => (err ? fail(err, req, res) : notFound(req, res, next));
    try {
      setRequestId(req, res, noop);
      logAccess(req, res, noop);
      setBodyLimit(req, res, noop);
      await options.forward(match, req, res, next);
    } catch (err) {
      fail(err, req, res);
    }
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    let match: RouteMatch | undefined;
    try {
      match = mayBeOwnPath(req.url ?? '/') ? undefined : options.match(req);
    } catch {
      match = undefined; // express meets the same error and answers it
    }
    if (!match) return app(req, res);
    const request = req as Request;
    const response = res as Response;
    // What express's app.handle and router set up before the first middleware. The server makes requests with the
    // app's prototypes already (startHttpServer's `express` option): setting them again changes nothing.
    request.res = response;
    response.req = request;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    response.locals ??= Object.create(null);
    request.originalUrl = req.url ?? '/';
    request.baseUrl = '';
    void serve(match, request, response);
  };
  return Object.assign(listener, { express: app });
}

/** The `next` the bootstrap middleware is given: each calls it when done, and the next step follows anyway. */
const noop = (): undefined => undefined;
