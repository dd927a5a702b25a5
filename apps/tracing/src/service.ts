import { serviceDataDir } from '@platform/config';
import { openDatabase as openSqlDatabase } from '@platform/prisma';
import { runsService } from '@platform/contracts';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { openTracingDatabase } from '@platform/tracing-data-access';
import { PrismaTracingProjectStore } from '@platform/tracing-projects';
import { IngestRuns, PrismaRunQueryRepository, RunsRepository, prismaIngestSql } from '@platform/tracing-runs';
import { createTracingApp } from './app';
import type { TracingConfig } from './config';
import { runsHandlers } from './grpc/runs.handlers';
import { runsQueryRoutes } from './http/runs-query.routes';

export const TRACING_VERSION = '0.1.0';

export function openDatabase(config: TracingConfig, logger?: Logger) {
  return openTracingDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'tracing'), logger });
}

export function startTracing(config: TracingConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    if (config.MIGRATE_ON_START) await db.migrate();

    const projects = new PrismaTracingProjectStore(db.prisma);
    // On Postgres, ingestion's set-based statements go through a pg pool of their own: with their large JSON
    // parameters (~100 KB and up), a Prisma raw query costs ~2 ms more CPU than the same query on pg (measured),
    // which was a third of ingestion's CPU. On PGlite they share Prisma's connection.
    const ingestSql = config.DATABASE_URL
      ? await lifecycle.use('ingest-database', openSqlDatabase({ url: config.DATABASE_URL, dataDir: '' }), (d) => d.close())
      : prismaIngestSql(db.prisma);
    const runs = new RunsRepository(ingestSql);
    const ingest = new IngestRuns(projects, runs, { maxConcurrentWrites: config.INGEST_CONCURRENCY });

    // `tracing.v1.Runs/StreamRuns`: what exporters read runs through.
    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        logger,
        auth: { token: config.INTERNAL_SECRET },
        services: [runsService().implement(runsHandlers({ prisma: db.prisma }))],
      }),
      (g) => g.shutdown(),
    );
    const app = createTracingApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      projects,
      ingest,
      runs,
      version: TRACING_VERSION,
      batchSizeLimitBytes: config.BATCH_SIZE_LIMIT_BYTES,
      batchSizeLimit: config.BATCH_SIZE_LIMIT,
      maxBodyBytes: config.INGEST_MAX_BODY_BYTES,
      extraRoutes: [runsQueryRoutes(new PrismaRunQueryRepository(db.prisma))],
      readiness: { database: () => db.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'tracing', url: http.url, grpcPort: grpc.port };
  });
}
