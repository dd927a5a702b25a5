import { exportPartitionQueue } from '@platform/contracts';
import { checkHealth } from '@platform/grpc';
import { createHttpApp, Lifecycle, startHttpServer, type RunningService } from '@platform/http-server';
import { createJobBus, type JobBus } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import type { ExportWorkerConfig } from './config';

export interface ExportWorkerDeps {
  /** A bus shared with the export service in the same process (embedded mode); else one is made from NATS_URL. */
  bus?: JobBus;
}

/**
 * A stateless export worker: its HTTP port serves only probes and metrics. It is ready when the bus and the two
 * gRPC peers it depends on (tracing, export) answer. The partition consumer joins with the export pipeline.
 */
export async function startExportWorker(
  config: ExportWorkerConfig,
  logger: Logger,
  deps: ExportWorkerDeps = {},
): Promise<RunningService> {
  const lifecycle = new Lifecycle(logger);
  try {
    const bus = deps.bus ?? (await createJobBus({ natsUrl: config.NATS_URL, logger }));
    if (!deps.bus) lifecycle.onShutdown('job bus', () => bus.close());
    await bus.ensureQueue(exportPartitionQueue);

    const serving = async (address: string) => (await checkHealth(address, { deadlineMs: 1_000 })) === 'SERVING';
    const { app } = createHttpApp({
      service: 'export-worker',
      logger,
      readiness: { bus: () => bus.ready(), tracing: () => serving(config.TRACING_GRPC), export: () => serving(config.EXPORT_GRPC) },
      identity: { secret: config.INTERNAL_SECRET },
      routes: () => undefined,
    });
    const http = await startHttpServer(app, config.HOST, config.PORT);
    lifecycle.onShutdown('http', () => http.close());
    return { name: 'export-worker', url: http.url, stop: () => lifecycle.shutdown() };
  } catch (err) {
    await lifecycle.shutdown('start failed');
    throw err;
  }
}
