import type { Express } from 'express';
import { MiB, createHttpApp, type BodyLimits, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { TracingProjectStore } from '@platform/tracing-projects';
import { ATTACHMENT_DOWNLOAD_PATH, type AttachmentLinks, type IngestRuns, type RunAttachmentsRepository, type RunQueryReader, type RunReader } from '@platform/tracing-runs';
import { attachmentDownloadRoutes } from './http/attachments.routes';
import { infoRoutes } from './http/info.routes';
import { runsIngestRoutes } from './http/runs-ingest.routes';
import { runsQueryRoutes } from './http/runs-query.routes';
import { runsV2Routes } from './http/runs-v2.routes';
import { sessionsRoutes } from './http/sessions.routes';

/** Body limits in bytes, by kind of route (the README's error section lists them). */
export interface TracingBodyLimits {
  /** `POST /runs/multipart`, the SDK's ingest path, which may carry attachments. */
  multipart: number;
  /** `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}`: at least the batch size announced in `/info`. */
  jsonIngest: number;
  /** Every other route (projects, run queries, the `/api/v2` reads). */
  other: number;
}

export interface TracingDeps {
  logger: Logger;
  internalSecret: string;
  projects: TracingProjectStore;
  ingest: IngestRuns;
  runs: RunReader;
  /** Run queries (`POST /api/v1/runs/query` and the `/api/v2` reads). */
  queries: RunQueryReader;
  /** Stored attachments, and the signed links to them. */
  attachments: RunAttachmentsRepository;
  links: AttachmentLinks;
  version: string;
  batchSizeLimitBytes: number;
  batchSizeLimit: number;
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
  const attachments = { attachments: deps.attachments, links: deps.links };
  return createHttpApp({
    service: 'tracing',
    logger: deps.logger,
    readiness: deps.readiness,
    // Attachment downloads carry their own credential (a signed link), as the SDKs fetch them without an API key.
    identity: { secret: deps.internalSecret, publicPaths: (path) => path === ATTACHMENT_DOWNLOAD_PATH },
    bodyLimits: tracingBodyLimits(deps.bodyLimits),
    routes: (app) => {
      app.use(attachmentDownloadRoutes(attachments));
      // An attachment is one part of a multipart body: never larger than the body may be.
      const maxAttachmentBytes = Math.min(deps.maxAttachmentBytes, deps.bodyLimits.multipart);
      app.use('/api/v1', runsIngestRoutes({ ingest: deps.ingest, runs: deps.runs, attachments, maxAttachmentBytes }));
      app.use(
        '/api/v1',
        infoRoutes({ version: deps.version, batchSizeLimitBytes: deps.batchSizeLimitBytes, batchSizeLimit: deps.batchSizeLimit }),
      );
      app.use('/api/v1', sessionsRoutes(deps.projects));
      app.use('/api/v1', runsQueryRoutes(deps.queries, attachments));
      app.use('/api/v2', runsV2Routes({ reader: deps.queries, attachments }));
    },
  }).app;
}
