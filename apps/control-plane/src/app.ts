import type { Express } from 'express';
import type { DeploymentStore } from '@platform/control-plane-deployments';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { deploymentsRoutes } from './http/deployments.routes';

export interface ControlPlaneDeps {
  logger: Logger;
  internalSecret: string;
  deployments: DeploymentStore;
  readiness?: Record<string, ReadinessCheck>;
}

// The OAuth provider redirects a browser here: no API key, the `state` authenticates it.
const isPublic = (path: string) => path.startsWith('/v2/auth/callback/');

export function createControlPlaneApp(deps: ControlPlaneDeps): Express {
  return createHttpApp({
    service: 'control-plane',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret, publicPaths: isPublic },
    routes: (app) => {
      app.use('/v2', deploymentsRoutes(deps.deployments));
    },
  }).app;
}
