import express, { type Express, type Router } from 'express';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { TracingProjectStore } from '@platform/tracing-projects';
import type { IngestRuns, RunReader } from '@platform/tracing-runs';
import { infoRoutes } from './http/info.routes';
import { runsIngestRoutes } from './http/runs-ingest.routes';
import { sessionsRoutes } from './http/sessions.routes';

export interface TracingDeps {
  logger: Logger;
  internalSecret: string;
  projects: TracingProjectStore;
  ingest: IngestRuns;
  runs: RunReader;
  version: string;
  batchSizeLimitBytes: number;
  batchSizeLimit: number;
  /** Largest ingest request body (413 beyond); also the JSON body limit of the other routes. */
  maxBodyBytes: number;
  /** More routers under `/api/v1` (run queries), mounted after the JSON body parser. */
  extraRoutes?: Router[];
  readiness?: Record<string, ReadinessCheck>;
}

export function createTracingApp(deps: TracingDeps): Express {
  return createHttpApp({
    service: 'tracing',
    logger: deps.logger,
    readiness: deps.readiness,
    identity: { secret: deps.internalSecret },
    // Ingest routes stream and decode (gzip, zstd) their own bodies, so JSON parsing is mounted after them.
    jsonBody: false,
    routes: (app) => {
      app.use('/api/v1', runsIngestRoutes({ ingest: deps.ingest, runs: deps.runs, maxBodyBytes: deps.maxBodyBytes }));
      app.use(express.json({ limit: deps.maxBodyBytes, type: ['application/json', 'application/*+json'] }));
      app.use(
        '/api/v1',
        infoRoutes({ version: deps.version, batchSizeLimitBytes: deps.batchSizeLimitBytes, batchSizeLimit: deps.batchSizeLimit }),
      );
      app.use('/api/v1', sessionsRoutes(deps.projects));
      for (const router of deps.extraRoutes ?? []) app.use('/api/v1', router);
    },
  }).app;
}
