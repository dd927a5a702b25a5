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
export function startExportWorker(config: ExportWorkerConfig, logger: Logger, deps: ExportWorkerDeps = {}): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const bus = deps.bus ?? (await lifecycle.use('job bus', createJobBus({ natsUrl: config.NATS_URL, logger }), (b) => b.close()));
    await bus.ensureQueue(exportPartitionQueue);

    const serving = async (address: string) => (await checkHealth(address, { deadlineMs: 1_000 })) === 'SERVING';
    const { app } = createHttpApp({
      service: 'export-worker',
      logger,
      readiness: { bus: () => bus.ready(), tracing: () => serving(config.TRACING_GRPC), export: () => serving(config.EXPORT_GRPC) },
      identity: { secret: config.INTERNAL_SECRET },
      routes: () => undefined,
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT), (h) => h.close());
    return { name: 'export-worker', url: http.url };
  });
}
