import type { Express } from 'express';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { ATTACHMENT_DOWNLOAD_PATH } from '@platform/tracing-runs';
import { docsRoutes, isDocsPath, mountRoutes } from '@platform/openapi';
import { tracingOpenApi, tracingRoutes, type TracingApiDeps } from './http/tracing.api';

/** Body limits in bytes, by kind of route (the README's error section lists them). */
export interface TracingBodyLimits {
  /** `POST /runs/multipart`, the SDK's ingest path, which may carry attachments. */
  multipart: number;
  /** `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}`: at least the batch size announced in `/info`. */
  jsonIngest: number;
  /** Every other route (projects, run queries, the `/api/v2` reads). */
  other: number;
}

export interface TracingDeps extends TracingApiDeps {
  logger: Logger;
  internalSecret: string;
  bodyLimits: TracingBodyLimits;
  /** Largest attachment part of a multipart body (413 beyond); the multipart body limit caps it. */
  maxAttachmentBytes: number;
  readiness?: Record<string, ReadinessCheck>;
}

/** Projects and run queries (v1 and v2) are small bodies. */
export const TRACING_OTHER_BODY_BYTES = MiB;

export function tracingBodyLimits(limits: TracingBodyLimits): BodyLimits {
  return {
    defaultBytes: limits.other,
    routes: [
      { method: 'POST', path: '/api/v1/runs/multipart', bytes: limits.multipart },
      { method: 'POST', path: '/api/v1/runs/batch', bytes: limits.jsonIngest },
      { method: 'POST', path: '/api/v1/runs', bytes: limits.jsonIngest },
      { method: 'PATCH', path: '/api/v1/runs/:runId', bytes: limits.jsonIngest },
    ],
  };
}

export function createTracingApp(deps: TracingDeps): Express {
  // An attachment is one part of a multipart body: never larger than the body may be.
  const routes = tracingRoutes({ ...deps, maxAttachmentBytes: Math.min(deps.maxAttachmentBytes, deps.bodyLimits.multipart) });
  return createHttpApp({
    service: 'tracing',
    logger: deps.logger,
    readiness: deps.readiness,
    // Attachment downloads carry their own credential (a signed link), as the SDKs fetch them without an API key.
    // The API's description is public.
    identity: { secret: deps.internalSecret, publicPaths: (path) => path === ATTACHMENT_DOWNLOAD_PATH || isDocsPath(path) },
    bodyLimits: tracingBodyLimits(deps.bodyLimits),
    routes: (app) => {
      mountRoutes(app, routes);
      app.use(docsRoutes(tracingOpenApi(routes, deps.version), { title: 'Tracing API', server: 'origin' }));
    },
  }).app;
}
