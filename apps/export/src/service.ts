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

export function openDatabase(config: ExportConfig) {
  return openExportDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'export') });
}

export interface ExportServiceDeps {
  /** A bus shared with an export-worker in the same process (embedded mode); else one is made from NATS_URL. */
  bus?: JobBus;
}

export async function startExport(config: ExportConfig, logger: Logger, deps: ExportServiceDeps = {}): Promise<RunningService> {
  const lifecycle = new Lifecycle(logger);
  try {
    const db = await openDatabase(config);
    lifecycle.onShutdown('database', () => db.close());
    if (config.MIGRATE_ON_START) await db.migrate();
    const bus = deps.bus ?? (await createJobBus({ natsUrl: config.NATS_URL, logger }));
    if (!deps.bus) lifecycle.onShutdown('job bus', () => bus.close());
    await bus.ensureQueue(exportPartitionQueue);

    // `export.v1.ExportProgress` joins this server with the dispatcher; until then it serves health only.
    const grpc = await startGrpcServer({
      host: config.HOST,
      port: config.GRPC_PORT,
      logger,
      auth: { token: config.INTERNAL_SECRET },
      services: [],
    });
    lifecycle.onShutdown('grpc', () => grpc.shutdown());
    const app = createExportApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      exports: new PrismaBulkExportStore(db.prisma),
      readiness: { database: () => db.ready(), bus: () => bus.ready() },
    });
    const http = await startHttpServer(app, config.HOST, config.PORT);
    lifecycle.onShutdown('http', () => http.close());
    return { name: 'export', url: http.url, grpcPort: grpc.port, stop: () => lifecycle.shutdown() };
  } catch (err) {
    await lifecycle.shutdown('start failed');
    throw err;
  }
}
