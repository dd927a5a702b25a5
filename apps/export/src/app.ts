import type { Express } from 'express';
import type { BulkExportStore } from '@platform/export-exports';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { bulkExportsRoutes } from './http/bulk-exports.routes';

export interface ExportDeps {
  logger: Logger;
  internalSecret: string;
  exports: BulkExportStore;
  readiness?: Record<string, ReadinessCheck>;
}

export function createExportApp(deps: ExportDeps): Express {
  return createHttpApp({
    service: 'export',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret },
    routes: (app) => {
      app.use('/api/v1', bulkExportsRoutes(deps.exports));
    },
  }).app;
}
