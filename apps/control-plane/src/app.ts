import type { Express } from 'express';
import type { DeploymentUrlOptions, DeploymentsContext } from '@platform/control-plane-deployments';
import type { OAuthContext } from '@platform/control-plane-oauth';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { authRoutes } from './http/auth.routes';
import { deploymentsRoutes } from './http/deployments.routes';
import { revisionsRoutes } from './http/revisions.routes';

export interface ControlPlaneDeps {
  logger: Logger;
  internalSecret: string;
  deployments: DeploymentsContext;
  oauth: OAuthContext;
  urls: DeploymentUrlOptions;
  readiness?: Record<string, ReadinessCheck>;
}

/** Deployments, revisions and OAuth bodies are small: one limit for every route (README, errors). */
export const CONTROL_PLANE_BODY_LIMITS: BodyLimits = { defaultBytes: MiB };

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
    },
  }).app;
}
