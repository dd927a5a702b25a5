import { openApiDocument, type DeclaredRoute, type OpenApiDocument } from '@platform/openapi';
import type { TracingProjectsRepository } from '@platform/tracing-data-access';
import type { AttachmentLinks, IngestRuns, RunAttachmentsRepository, RunQueryReader, RunReader } from '@platform/tracing-runs';
import { attachmentDownloadRoutes } from './attachments.routes';
import { infoRoutes } from './info.routes';
import { runsIngestRoutes } from './runs-ingest.routes';
import { runsQueryRoutes } from './runs-query.routes';
import { runsV2Routes } from './runs-v2.routes';
import { sessionsRoutes } from './sessions.routes';

/** What the routes need (the app's deps extend it). */
export interface TracingApiDeps {
  projects: TracingProjectsRepository;
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
  /** Largest attachment part (413 beyond). */
  maxAttachmentBytes: number;
}

/** Every route of the tracing API (LangSmith's `/api/v1` and `/api/v2` run reads), declared once. */
export function tracingRoutes(deps: TracingApiDeps): DeclaredRoute[] {
  const attachments = { attachments: deps.attachments, links: deps.links };
  return [
    ...attachmentDownloadRoutes(attachments),
    ...runsIngestRoutes({ ingest: deps.ingest, runs: deps.runs, attachments, maxAttachmentBytes: deps.maxAttachmentBytes }),
    ...infoRoutes({ version: deps.version, batchSizeLimitBytes: deps.batchSizeLimitBytes, batchSizeLimit: deps.batchSizeLimit }),
    ...sessionsRoutes(deps.projects),
    ...runsQueryRoutes(deps.queries, attachments),
    ...runsV2Routes({ reader: deps.queries, attachments }),
  ];
}

/** The tracing service's OpenAPI document (the gateway serves it at `/api/v1/tracing/openapi.json`, Swagger UI beside it). */
export function tracingOpenApi(routes: readonly DeclaredRoute[], version: string): OpenApiDocument {
  return openApiDocument(
    {
      title: 'Tracing',
      version,
      description: 'Run ingestion and reads, projects and attachments, as the `langsmith` SDK calls them.',
      tags: [{ name: 'Runs' }, { name: 'Runs (v2)' }, { name: 'Projects' }, { name: 'Attachments' }, { name: 'Info' }],
    },
    routes,
  );
}
