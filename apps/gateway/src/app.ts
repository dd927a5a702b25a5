import type { NextFunction, Request, Response } from 'express';
import { KiB, createHttpApp, type BodyLimits, type ReadinessCheck, type ServiceMetrics } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { Authenticator, Caller, IdentityStore } from '@platform/gateway-identity';
import { DEFAULT_ROUTES, matchDeploymentHost, matchRoute, type CachedResolver, type RouteMatch, type RouteRule, type Upstream } from '@platform/gateway-routing';
import { AuthenticationError } from '@platform/errors';
import { isDocsPath, mountRoutes } from '@platform/openapi';
import { authenticateRequest } from './http/authenticate.middleware';
import { consoleRoutes } from './http/console.routes';
import { serviceDocsRoutes } from './http/docs.routes';
import { gatewayOpenApi, gatewayRoutes } from './http/gateway.api';
import { proxiedFirst, type GatewayListener } from './http/proxied-first';
import { proxyTo } from './http/proxy';
import { WorkspaceRateLimiter } from './http/workspace-limits';
import { DEFAULT_WORKSPACE_LIMITS, type WorkspaceLimits } from '@platform/rate-limit';

export interface GatewayDeps {
  logger: Logger;
  metrics?: ServiceMetrics;
  store: IdentityStore;
  authenticator: Authenticator;
  resolveDeployment: CachedResolver;
  upstreams: Record<Exclude<Upstream, 'deployment'>, string>;
  internalSecret: string;
  proxyTimeoutMs?: number;
  /** How long a wait or join whose Agent Server replica failed looks for another to continue on (default 30 s). */
  upstreamRetryWindowMs?: number;
  routes?: readonly RouteRule[];
  /** Wildcard domain for deployments by host name: `<deployment id>.<domain>`. */
  deploymentDomain?: string;
  readiness?: Record<string, ReadinessCheck>;
  /** Browser sessions (the console's sign-in): their lifetime. */
  browserSessions?: { ttlMs: number };
  /** The built web console served at `/` (`dist/apps/console`); absent: no console. */
  consoleDir?: string;
  /** Per-workspace rate limits and quota: the defaults (else the built-in ones) and the gateway replicas sharing them. */
  limits?: { defaults: WorkspaceLimits; replicas: number };
}

const DEFAULT_SESSION_TTL_MS = 8 * 3600_000;

/**
 * What the gateway reads itself (README, errors): admin API bodies up to 100 KiB, internal calls and browser sign-in
 * up to 10 KiB. Proxied bodies are not read here: each service holds them to its own limits.
 */
export const GATEWAY_BODY_LIMITS: BodyLimits = {
  defaultBytes: 100 * KiB,
  routes: [
    { method: 'POST', path: '/internal/v1/service-keys', bytes: 10 * KiB },
    { method: 'POST', path: '/api/v1/browser-session', bytes: 10 * KiB },
    { method: 'PATCH', path: '/api/v1/browser-session', bytes: 10 * KiB },
  ],
};

/** `GET /deployments/{id}/docs` (and its assets) or `/openapi.json`: what an Agent Server serves without an identity. */
const isDeploymentDocs = (match: RouteMatch, method: string) =>
  match.rule.upstream === 'deployment' && (method === 'GET' || method === 'HEAD') && isDocsPath(match.upstreamPath.split('?')[0]);

/**
 * The gateway: its own admin API and browser sessions, each service's API description (`<prefix>/docs`), API-key
 * (or session) authentication and proxying by route table, then the web console. Proxied routes skip express's
 * middleware stack (`proxiedFirst`), running the same middleware.
 */
export function createGatewayApp(deps: GatewayDeps): GatewayListener {
  const forward = proxyTo({
    upstreams: deps.upstreams,
    resolveDeployment: deps.resolveDeployment,
    internalSecret: deps.internalSecret,
    proxyTimeoutMs: deps.proxyTimeoutMs ?? 0,
    retryWindowMs: deps.upstreamRetryWindowMs ?? 30_000,
    logger: deps.logger,
  });
  const defaultLimits = deps.limits?.defaults ?? DEFAULT_WORKSPACE_LIMITS;
  const limiter = new WorkspaceRateLimiter({ store: deps.store, defaults: defaultLimits, replicas: deps.limits?.replicas });
  const routes = gatewayRoutes({ ...deps, defaultLimits, browserSessions: deps.browserSessions ?? { ttlMs: DEFAULT_SESSION_TTL_MS } });
  const routeOf = (req: { headers: { host?: string }; url?: string }): RouteMatch | undefined =>
    matchDeploymentHost(req.headers.host, deps.deploymentDomain, req.url ?? '/') ?? matchRoute(req.url ?? '/', deps.routes ?? DEFAULT_ROUTES);
  const proxied = async (match: RouteMatch, req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (match.rule.auth === 'api-key') {
      try {
        res.locals.caller = await authenticateRequest(deps.authenticator, req);
      } catch (err) {
        // A deployment's API description is public, as the reference serves it (a browser opening /docs sends no
        // key): without (valid) credentials it goes through unsigned, found by its id alone.
        if (!(err instanceof AuthenticationError) || !isDeploymentDocs(match, req.method)) throw err;
        res.locals.openDocs = true;
      }
    }
    await limiter.admit(req, res.locals.caller as Caller | undefined, match.rule.upstream);
    await forward(match, req, res, next);
  };
  const { app, metrics } = createHttpApp({
    service: 'gateway',
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    // No body parser before the proxy: bodies stream through untouched (multipart trace uploads, large inputs).
    jsonBody: false,
    bodyLimits: GATEWAY_BODY_LIMITS,
    routes: (app) => {
      mountRoutes(app, routes);
      app.use(serviceDocsRoutes({ upstreams: deps.upstreams, own: gatewayOpenApi(routes), logger: deps.logger }));
      app.use(async (req, res, next) => {
        const match = routeOf(req);
        if (!match) return next();
        return proxied(match, req, res, next);
      });
      if (deps.consoleDir) app.use(consoleRoutes(deps.consoleDir));
    },
  });
  return proxiedFirst({ app, logger: deps.logger, metrics, bodyLimits: GATEWAY_BODY_LIMITS, match: routeOf, forward: proxied });
}
