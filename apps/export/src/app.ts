import type { Express } from 'express';
import type { DestinationsDeps } from '@platform/export-destinations';
import type { ExportsDeps } from '@platform/export-exports';
import { MiB, createHttpApp, type BodyLimits, type LivenessCheck, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { docsRoutes, isDocsPath, mountRoutes } from '@platform/openapi';
import { exportOpenApi, exportRoutes } from './http/export.api';

export interface ExportDeps {
  logger: Logger;
  internalSecret: string;
  exports: ExportsDeps;
  destinations: DestinationsDeps;
  readiness?: Record<string, ReadinessCheck>;
  liveness?: Record<string, LivenessCheck>;
}

/** Destinations and exports are small bodies: one limit for every route (README, errors). */
export const EXPORT_BODY_LIMITS: BodyLimits = { defaultBytes: MiB };

export function createExportApp(deps: ExportDeps): Express {
  const routes = exportRoutes(deps);
  return createHttpApp({
    service: 'export',
    logger: deps.logger,
    readiness: deps.readiness,
    liveness: deps.liveness,
    // The API's description is public.
    identity: { secret: deps.internalSecret, publicPaths: isDocsPath },
    bodyLimits: EXPORT_BODY_LIMITS,
    routes: (app) => {
      mountRoutes(app, routes);
      app.use(docsRoutes(exportOpenApi(routes), { title: 'Bulk export API', server: 'origin' }));
    },
  }).app;
}
