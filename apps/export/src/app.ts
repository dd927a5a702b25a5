import type { Express } from 'express';
import type { DestinationsDeps } from '@platform/export-destinations';
import type { ExportsDeps } from '@platform/export-exports';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { bulkExportsRoutes } from './http/bulk-exports.routes';
import { destinationsRoutes } from './http/destinations.routes';

export interface ExportDeps {
  logger: Logger;
  internalSecret: string;
  exports: ExportsDeps;
  destinations: DestinationsDeps;
  readiness?: Record<string, ReadinessCheck>;
}

/** Destinations and exports are small bodies: one limit for every route (README, errors). */
export const EXPORT_BODY_LIMITS: BodyLimits = { defaultBytes: MiB };

export function createExportApp(deps: ExportDeps): Express {
  return createHttpApp({
    service: 'export',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret },
    bodyLimits: EXPORT_BODY_LIMITS,
    routes: (app) => {
      // Destinations first: `/bulk-exports/destinations` must not reach `/bulk-exports/:exportId`.
      app.use('/api/v1', destinationsRoutes(deps.destinations));
      app.use('/api/v1', bulkExportsRoutes(deps.exports));
    },
  }).app;
}
