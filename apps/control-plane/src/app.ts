import type { Express } from 'express';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { docsRoutes, isDocsPath, mountRoutes } from '@platform/openapi';
import { controlPlaneOpenApi, controlPlaneRoutes, type ControlPlaneApiDeps } from './http/control-plane.api';

export interface ControlPlaneDeps extends ControlPlaneApiDeps {
  logger: Logger;
  internalSecret: string;
  readiness?: Record<string, ReadinessCheck>;
}

/** An uploaded project (`agent-platform deploy`): its archive, and its files once unpacked, at most this large. */
export const SOURCE_UPLOAD_LIMIT = 100 * MiB;

/** Deployments, revisions and OAuth bodies are small: one limit for every route but source uploads (README, errors). */
export const CONTROL_PLANE_BODY_LIMITS: BodyLimits = { defaultBytes: MiB, routes: [{ method: 'POST', path: '/v2/sources/:name', bytes: SOURCE_UPLOAD_LIMIT }] };

// The OAuth provider redirects a browser here: no API key, the `state` authenticates it. The API's description is public.
const isPublic = (path: string) => path.startsWith('/v2/auth/callback/') || isDocsPath(path);

export function createControlPlaneApp(deps: ControlPlaneDeps): Express {
  const routes = controlPlaneRoutes(deps);
  return createHttpApp({
    service: 'control-plane',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret, publicPaths: isPublic },
    bodyLimits: CONTROL_PLANE_BODY_LIMITS,
    routes: (app) => {
      mountRoutes(app, routes);
      app.use(docsRoutes(controlPlaneOpenApi(routes), { title: 'Control plane API', server: 'origin' }));
    },
  }).app;
}
