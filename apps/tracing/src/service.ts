import { serviceDataDir } from '@platform/config';
import { openDatabase as openSqlDatabase } from '@platform/prisma';
import { runsService } from '@platform/contracts';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { defaultWorkspaceLimits } from '@platform/rate-limit';
import { openPostgresCopySql, openTracingDatabase, prismaIngestSql, TracingProjectsRepository } from '@platform/tracing-data-access';
import {
  AttachmentLinks,
  IngestAdmission,
  IngestRuns,
  RunAttachmentsRepository,
  RunQueryRepository,
  RunsRepository,
} from '@platform/tracing-runs';
import { TRACING_OTHER_BODY_BYTES, createTracingApp } from './app';
import type { TracingConfig } from './config';
import { runsHandlers } from './grpc/runs.handlers';

/**
 * The LangSmith version announced in `/info`. The `langsmith` SDK warns that the backend is too old for its resource
 * API (`client.runs`, `client.traces`) below 0.16.0; those reads are served here (`/api/v2`). Resources that need
 * more (sessions.resolve, 0.18; annotation queue items, 0.16.14) are not served, and the SDK's warning for them
 * would not be wrong.
 */
export const TRACING_VERSION = '0.16.0';

export function openDatabase(config: TracingConfig, logger?: Logger) {
  return openTracingDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'tracing'), logger });
}

export function startTracing(config: TracingConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    await db.prepare({ migrate: config.MIGRATE_ON_START });

    const projects = new TracingProjectsRepository(db.prisma);
    // On Postgres, ingestion's set-based statements go through a pg pool of their own: with their large JSON
    // parameters (~100 KB and up), a Prisma raw query costs ~2 ms more CPU than the same query on pg (measured),
    // which was a third of ingestion's CPU. On PGlite they share Prisma's connection.
    const ingestSql = config.DATABASE_URL
      ? await lifecycle.use('ingest-database', openSqlDatabase({ url: config.DATABASE_URL, dataDir: '' }), (d) => d.close())
      : prismaIngestSql(db.prisma);
    const runs = new RunsRepository(ingestSql);
    const admission = new IngestAdmission({ defaults: defaultWorkspaceLimits(config), replicas: config.RATE_LIMIT_REPLICAS, storedRuns: runs });
    const ingest = new IngestRuns(projects, runs, {
      maxConcurrentWrites: config.INGEST_CONCURRENCY,
      maxQueuedWritesPerWorkspace: config.INGEST_MAX_QUEUED_PER_WORKSPACE,
      admission,
    });

    // `tracing.v1.Runs/StreamRuns`: what exporters read runs through. On Postgres its NDJSON pages are read by binary
    // COPY on a pool of their own, as bytes (no JS string per run); on PGlite through Prisma.
    const copy = config.DATABASE_URL
      ? await lifecycle.use('stream-database', openPostgresCopySql(config.DATABASE_URL), (c) => c.close())
      : undefined;
    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        logger,
        auth: { token: config.INTERNAL_SECRET },
        services: [runsService().implement(runsHandlers({ prisma: db.prisma, copy }))],
      }),
      (g) => g.shutdown(),
    );
    const app = createTracingApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      projects,
      ingest,
      runs,
      queries: new RunQueryRepository(prismaIngestSql(db.prisma)),
      attachments: new RunAttachmentsRepository(ingestSql),
      links: new AttachmentLinks({ secret: config.INTERNAL_SECRET, ttlSeconds: config.ATTACHMENT_URL_TTL_SECONDS }),
      version: TRACING_VERSION,
      batchSizeLimitBytes: config.BATCH_SIZE_LIMIT_BYTES,
      batchSizeLimit: config.BATCH_SIZE_LIMIT,
      bodyLimits: { multipart: config.INGEST_MAX_BODY_BYTES, jsonIngest: config.INGEST_JSON_MAX_BODY_BYTES, other: TRACING_OTHER_BODY_BYTES },
      maxAttachmentBytes: config.ATTACHMENT_MAX_BYTES,
      readiness: { database: () => db.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT, slowClientLimits(config)), (h) => h.close());
    return { name: 'tracing', url: http.url, grpcPort: grpc.port };
  });
}
