import type { Express } from 'express';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { infoRoutes } from './http/info.routes';

export interface AgentServerDeps {
  logger: Logger;
  internalSecret: string;
  version: string;
  deploymentId?: string;
  readiness?: Record<string, ReadinessCheck>;
}

export function createAgentServerApp(deps: AgentServerDeps): Express {
  return createHttpApp({
    service: 'agent-server',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret },
    routes: (app) => {
      app.use(infoRoutes({ version: deps.version, deploymentId: deps.deploymentId }));
    },
  }).app;
}
