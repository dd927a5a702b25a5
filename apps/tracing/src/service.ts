import { serviceDataDir } from '@platform/config';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import type { Logger } from '@platform/logging';
import { openTracingDatabase } from '@platform/tracing-data-access';
import { PrismaTracingProjectStore } from '@platform/tracing-projects';
import { createTracingApp } from './app';
import type { TracingConfig } from './config';

export const TRACING_VERSION = '0.1.0';

export function openDatabase(config: TracingConfig, logger?: Logger) {
  return openTracingDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'tracing'), logger });
}

export function startTracing(config: TracingConfig, logger: Logger): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    if (config.MIGRATE_ON_START) await db.migrate();

    // `tracing.v1.Runs` joins this server with run storage; until then it serves health only.
    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({ host: config.HOST, port: config.GRPC_PORT, logger, auth: { token: config.INTERNAL_SECRET }, services: [] }),
      (g) => g.shutdown(),
    );
    const app = createTracingApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      projects: new PrismaTracingProjectStore(db.prisma),
      version: TRACING_VERSION,
      batchSizeLimitBytes: config.BATCH_SIZE_LIMIT_BYTES,
      readiness: { database: () => db.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'tracing', url: http.url, grpcPort: grpc.port };
  });
}
