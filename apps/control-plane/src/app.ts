import type { Express } from 'express';
import type { DeploymentUrlOptions, DeploymentsContext } from '@platform/control-plane-deployments';
import type { OAuthContext } from '@platform/control-plane-oauth';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { authRoutes } from './http/auth.routes';
import { deploymentsRoutes } from './http/deployments.routes';
import { revisionsRoutes } from './http/revisions.routes';
import { sourcesRoutes } from './http/sources.routes';

export interface ControlPlaneDeps {
  logger: Logger;
  internalSecret: string;
  deployments: DeploymentsContext;
  oauth: OAuthContext;
  urls: DeploymentUrlOptions;
  readiness?: Record<string, ReadinessCheck>;
  /** Where uploaded sources are kept (`POST /v2/sources/{name}`). */
  sourcesDir: string;
}

/** An uploaded project (`agent-platform deploy`): its archive, and its files once unpacked, at most this large. */
export const SOURCE_UPLOAD_LIMIT = 100 * MiB;

/** Deployments, revisions and OAuth bodies are small: one limit for every route but source uploads (README, errors). */
export const CONTROL_PLANE_BODY_LIMITS: BodyLimits = { defaultBytes: MiB, routes: [{ method: 'POST', path: '/v2/sources/:name', bytes: SOURCE_UPLOAD_LIMIT }] };

// The OAuth provider redirects a browser here: no API key, the `state` authenticates it.
const isPublic = (path: string) => path.startsWith('/v2/auth/callback/');

export function createControlPlaneApp(deps: ControlPlaneDeps): Express {
  return createHttpApp({
    service: 'control-plane',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret, publicPaths: isPublic },
    bodyLimits: CONTROL_PLANE_BODY_LIMITS,
    routes: (app) => {
      app.use('/v2', deploymentsRoutes(deps.deployments, deps.urls));
      app.use('/v2', revisionsRoutes(deps.deployments, deps.urls));
      app.use('/v2', authRoutes(deps.oauth));
      app.use('/v2', sourcesRoutes(deps.sourcesDir));
    },
  }).app;
}
