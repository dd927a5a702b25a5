import { Readable } from 'node:stream';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { Hono, type MiddlewareHandler } from 'hono';
import type { DeploymentAuth } from '@platform/agent-server-auth';
import type { HttpConfig } from '@platform/agent-server-graphs';
import { errorHandler, requestContext, requestId, trustedIdentity } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { corsMiddleware } from '../http/common/cors.middleware';
import { authenticateCaller, deploymentAuthHeaders } from '../http/common/deployment-auth.middleware';
import { devApiKey } from '../http/dev/dev-api-key.middleware';
import type { CallerHandoff } from './caller-handoff';
import { forwardToCore } from './forward-to-core';
import type { CustomApp } from './load-custom-app';

// The node adapter's request is a lightweight stand-in that node's own `new Request(c.req.raw, init)` cannot copy (a
// middleware rewriting a body does that): the project's app gets a standard Request, its body streamed from the socket.
const standardRequest: MiddlewareHandler<{ Bindings: HttpBindings }> = async (c, next) => {
  const { method, url, headers, signal } = c.req.raw;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? (Readable.toWeb(c.env.incoming) as ReadableStream<Uint8Array>) : undefined;
  c.req.raw = new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit);
  await next();
};

// A request the project's routes answered, logged as the core routes log theirs (forwarded ones the core logs).
const customRouteLog: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    if (res.locals['forwarded']) return;
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    requestContext(res).logger.info({ method: req.method, path: req.originalUrl, status: res.statusCode, duration_ms: durationMs, route: 'http.app' }, 'request');
  });
  next();
};

/** Hono's `HTTPException` (any copy of it): a status and `getResponse()`, the answer it carries. */
function isHttpException(err: unknown): err is Error & { status: number; getResponse: () => Response } {
  if (!(err instanceof Error)) return false;
  const candidate = err as Error & { status?: unknown; getResponse?: unknown };
  return typeof candidate.status === 'number' && typeof candidate.getResponse === 'function';
}

export interface CustomAppFrontDeps {
  logger: Logger;
  /** The project's Hono app (`http.app`). */
  app: CustomApp;
  /** Where the core routes listen (in this process, on the loopback interface). */
  coreUrl: () => string;
  /** The deployment's key (DEPLOYMENT_KEY) the gateway signs with. */
  deploymentKey: string;
  previousDeploymentKeys?: readonly string[];
  deploymentId?: string;
  /** Paths open without the gateway's signature, as on the core routes (probes, docs). */
  isPublicPath: (path: string) => boolean;
  /** The deployment's auth and its open paths: with `authenticateCustomRoutes`, it runs before the project's app. */
  auth?: { auth: DeploymentAuth; isOpen: (req: Request) => boolean; authenticateCustomRoutes: boolean };
  /** langgraph.json `http.cors`: the project's routes answer with the same CORS headers as the core ones. */
  cors?: HttpConfig['cors'];
  handoff: CallerHandoff;
  /** The development server: no gateway in front (no signature to check), its API key when it listens beyond loopback. */
  dev?: { apiKey?: string };
}

/**
 * What listens when langgraph.json has `http.app`: the gateway's check (and the deployment's auth), then the project's
 * Hono app, whose routes answer first and whose middleware wraps the core routes too, as on LangGraph Platform: a
 * request none of its routes answers goes on to the core routes (forwardToCore).
 */
export function createCustomAppFront(deps: CustomAppFrontDeps): Express {
  // The project's routes and middleware first (in its order), then everything else to the core routes.
  const routes = new Hono()
    .use(standardRequest)
    .route('/', deps.app as unknown as Hono)
    .all('*', forwardToCore(deps.coreUrl, deps.handoff));
  routes.onError((err, c) => {
    // The project's HTTPException answers what it says, as Hono's own handler answers it, whichever Hono copy threw
    // it (the project's own, or the platform's when they share one): recognised by its shape, not its class.
    if (isHttpException(err)) return err.getResponse();
    deps.logger.error({ err, method: c.req.method, path: c.req.path }, 'request failed');
    return c.json({ detail: 'Internal Server Error' }, 500);
  });
  // Not over the globals: the server's own fetch and Response stay node's.
  const listener = getRequestListener(routes.fetch, { overrideGlobalObjects: false });
  const front = express();
  front.disable('x-powered-by');
  front.set('trust proxy', true);
  front.use(requestId(deps.logger));
  front.use(customRouteLog);
  if (deps.cors) front.use(corsMiddleware(deps.cors));
  if (!deps.dev) front.use(trustedIdentity({ secret: deps.deploymentKey, previousSecrets: deps.previousDeploymentKeys, deploymentId: deps.deploymentId, publicPaths: deps.isPublicPath }));
  else if (deps.dev.apiKey) front.use(devApiKey(deps.dev.apiKey));
  if (deps.auth?.authenticateCustomRoutes) front.use(authenticateCaller(deps.auth.auth, deps.auth.isOpen));
  front.use((req, res, next) => {
    listener(req, res).catch(next);
  });
  front.use(deploymentAuthHeaders);
  front.use(errorHandler);
  return front;
}
