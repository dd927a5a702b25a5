import type { Express } from 'express';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { TracingProjectStore } from '@platform/tracing-projects';
import { infoRoutes } from './http/info.routes';
import { sessionsRoutes } from './http/sessions.routes';

export interface TracingDeps {
  logger: Logger;
  internalSecret: string;
  projects: TracingProjectStore;
  version: string;
  batchSizeLimitBytes: number;
  readiness?: Record<string, ReadinessCheck>;
}

export function createTracingApp(deps: TracingDeps): Express {
  return createHttpApp({
    service: 'tracing',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret },
    jsonBody: { limit: '50mb' },
    routes: (app) => {
      app.use('/api/v1', infoRoutes({ version: deps.version, batchSizeLimitBytes: deps.batchSizeLimitBytes }));
      app.use('/api/v1', sessionsRoutes(deps.projects));
    },
  }).app;
}
