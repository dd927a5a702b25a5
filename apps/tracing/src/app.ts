import express, { type Express } from 'express';
import { createHttpApp, type ReadinessCheck } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import type { TracingProjectStore } from '@platform/tracing-projects';
import { ATTACHMENT_DOWNLOAD_PATH, type AttachmentLinks, type IngestRuns, type RunAttachmentsRepository, type RunQueryReader, type RunReader } from '@platform/tracing-runs';
import { attachmentDownloadRoutes } from './http/attachments.routes';
import { infoRoutes } from './http/info.routes';
import { runsIngestRoutes } from './http/runs-ingest.routes';
import { runsQueryRoutes } from './http/runs-query.routes';
import { runsV2Routes } from './http/runs-v2.routes';
import { sessionsRoutes } from './http/sessions.routes';

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
  /** Largest ingest request body (413 beyond); also the JSON body limit of the other routes. */
  maxBodyBytes: number;
  /** Largest attachment (413 beyond). */
  maxAttachmentBytes: number;
  readiness?: Record<string, ReadinessCheck>;
}

export function createTracingApp(deps: TracingDeps): Express {
  const attachments = { attachments: deps.attachments, links: deps.links };
  return createHttpApp({
    service: 'tracing',
    logger: deps.logger,
    readiness: deps.readiness,
    // Attachment downloads carry their own credential (a signed link), as the SDKs fetch them without an API key.
    identity: { secret: deps.internalSecret, publicPaths: (path) => path === ATTACHMENT_DOWNLOAD_PATH },
    // Ingest routes stream and decode (gzip, zstd) their own bodies, so JSON parsing is mounted after them.
    jsonBody: false,
    routes: (app) => {
      app.use(attachmentDownloadRoutes(attachments));
      app.use(
        '/api/v1',
        runsIngestRoutes({ ingest: deps.ingest, runs: deps.runs, attachments, maxBodyBytes: deps.maxBodyBytes, maxAttachmentBytes: deps.maxAttachmentBytes }),
      );
      app.use(express.json({ limit: deps.maxBodyBytes, type: ['application/json', 'application/*+json'] }));
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
