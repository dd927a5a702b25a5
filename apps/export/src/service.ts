import { serviceDataDir } from '@platform/config';
import { exportPartitionQueue } from '@platform/contracts';
import { openExportDatabase } from '@platform/export-data-access';
import { PrismaBulkExportStore } from '@platform/export-exports';
import { startGrpcServer } from '@platform/grpc';
import { Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import { createJobBus, type JobBus } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import { createExportApp } from './app';
import type { ExportConfig } from './config';

export function openDatabase(config: ExportConfig, logger?: Logger) {
  return openExportDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'export'), logger });
}

export interface ExportServiceDeps {
  /** A bus shared with an export-worker in the same process (embedded mode); else one is made from NATS_URL. */
  bus?: JobBus;
}

export function startExport(config: ExportConfig, logger: Logger, deps: ExportServiceDeps = {}): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = await lifecycle.use('database', openDatabase(config, logger), (d) => d.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const bus = deps.bus ?? (await lifecycle.use('job bus', createJobBus({ natsUrl: config.NATS_URL, logger }), (b) => b.close()));
    await bus.ensureQueue(exportPartitionQueue);

    // `export.v1.ExportProgress` joins this server with the dispatcher; until then it serves health only.
    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({ host: config.HOST, port: config.GRPC_PORT, logger, auth: { token: config.INTERNAL_SECRET }, services: [] }),
      (g) => g.shutdown(),
    );
    const app = createExportApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      exports: new PrismaBulkExportStore(db.prisma),
      readiness: { database: () => db.ready(), bus: () => bus.ready() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'export', url: http.url, grpcPort: grpc.port };
  });
}
