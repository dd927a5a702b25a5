import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from '@platform/logging';
import { accessLog } from './access-log.middleware';
import { bodyLimits, MiB, type BodyLimits } from './body-limits';
import { errorHandler, notFound } from './error.middleware';
import { jsonBody } from './json-body.middleware';
import { createMetrics, type ServiceMetrics } from './metrics';
import { requestId } from './request-id.middleware';
import { trustedIdentity } from './trusted-identity.middleware';

/** A named dependency check for `/ready`; resolves true when the dependency is usable. */
export type ReadinessCheck = () => Promise<boolean>;

/**
 * A named check for `/ok`: false only when a component is wedged beyond healing (e.g. a NATS connection closed for
 * good), so a liveness probe restarts the process. An outage it will heal from is `/ready`'s business, not this.
 */
export type LivenessCheck = () => boolean;

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  metrics?: ServiceMetrics;
  readiness?: Record<string, ReadinessCheck>;
  liveness?: Record<string, LivenessCheck>;
  /**
   * Require the gateway's signed identity on every route but the probes (and `publicPaths`).
   * The gateway itself passes `undefined`: it is where identity is established. With `deploymentId` (an Agent
   * Server's), only requests the gateway signed for that deployment pass, on any path.
   */
  identity?: { secret: string; previousSecrets?: readonly string[]; publicPaths?: (path: string) => boolean; deploymentId?: string };
  /**
   * Parse JSON bodies before the routes (default true). The gateway turns it off to stream bodies through (its own
   * routes mount `jsonBody()` where they read one).
   */
  jsonBody?: boolean;
  /** The body limit of each route (default: 1 MiB for all), documented in the README's error section. */
  bodyLimits?: BodyLimits;
  /** Middleware before the gateway-signature check and the probes (CORS: a browser's preflight carries no signature). */
  beforeIdentity?: RequestHandler[];
  /** Mounts the service's own routes, after the bootstrap middleware and before the error handlers. */
  routes: (app: Express) => void;
}

const PROBES = new Set(['/ok', '/ready', '/metrics']);
const READINESS_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The express app every service starts from: request id and JSON access log, `/ok` (liveness),
 * `/ready` (dependency checks), `/metrics` (Prometheus), the gateway-signature check, the service's routes,
 * then `{"detail": ...}` errors and 404s.
 */
export function createHttpApp(options: HttpAppOptions): { app: Express; metrics: ServiceMetrics } {
  const metrics = options.metrics ?? createMetrics(options.service);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);
  app.set('query parser', 'extended');
  app.use(requestId(options.logger));
  app.use(accessLog(metrics, PROBES, options.logger));
  for (const handler of options.beforeIdentity ?? []) app.use(handler);
  // Before the probes too: a request the gateway signed for another deployment is refused whatever its path.
  if (options.identity) {
    const extra = options.identity.publicPaths ?? (() => false);
    app.use(trustedIdentity({ ...options.identity, publicPaths: (path) => PROBES.has(path) || extra(path) }));
  }

  app.get('/ok', (_req, res) => {
    const failed = Object.entries(options.liveness ?? {}).filter(([, check]) => !check());
    if (!failed.length) return void res.json({ ok: true });
    res.status(503).json({ ok: false, wedged: failed.map(([name]) => name) });
  });
  app.get('/ready', async (_req, res) => {
    const entries = Object.entries(options.readiness ?? {});
    const results = await Promise.all(entries.map(async ([name, check]) => [name, await runCheck(check)] as const));
    const ready = results.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ ready, checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.use(bodyLimits(options.bodyLimits ?? { defaultBytes: MiB }));
  if (options.jsonBody !== false) app.use(jsonBody());
  options.routes(app);
  app.use(notFound);
  app.use(errorHandler);
  return { app, metrics };
}
