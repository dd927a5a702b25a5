import { serviceDataDir } from '@platform/config';
import { exportPartitionQueue, exportProgressService, runsService } from '@platform/contracts';
import { openExportDatabase, systemClock, type ExportDatabase } from '@platform/export-data-access';
import { dispatchOnce, sweepTimeouts } from '@platform/export-dispatch';
import { ambientCredentialsFor, CredentialCipher } from '@platform/export-s3';
import { egressPolicyFromConfig } from '@platform/egress';
import { spawnScheduledExports, startBackgroundLoop, type BackgroundLoop } from '@platform/export-exports';
import { createClient, startGrpcServer } from '@platform/grpc';
import { Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import { createJobBus, installationQueue, type JobBus, type QueueDefinition } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import { createExportApp } from './app';
import type { ExportConfig } from './config';
import { exportComponents, exportSettingsOf } from './export-components';
import { exportProgressHandlers } from './grpc/export-progress.handlers';
import { tracingQueryValidator } from './grpc/tracing-query.validator';

export function openDatabase(config: ExportConfig, logger?: Logger) {
  return openExportDatabase({ url: config.DATABASE_URL, dataDir: serviceDataDir(config.DATA_DIR, 'export'), logger });
}

export interface ExportServiceDeps {
  /** A bus shared with an export-worker in the same process (embedded mode); else one is made from NATS_URL. */
  bus?: JobBus;
  /** An already open (and migrated) database, e.g. a test's; the caller closes it. */
  database?: ExportDatabase;
  /** The partition-job queue; default `exportPartitionQueue` (tests on a shared NATS pass one of their own). */
  partitionQueue?: QueueDefinition<typeof exportPartitionQueue.schema>;
}

export function startExport(config: ExportConfig, logger: Logger, deps: ExportServiceDeps = {}): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    const db = deps.database ?? (await lifecycle.use('database', openDatabase(config, logger), (d) => d.close()));
    await db.prepare({ migrate: config.MIGRATE_ON_START });
    const bus = deps.bus ?? (await lifecycle.use('job bus', createJobBus({ natsUrl: config.NATS_URL, streamReplicas: config.NATS_STREAM_REPLICAS, logger }), (b) => b.close()));
    const partitionQueue = deps.partitionQueue ?? installationQueue(exportPartitionQueue, config.NATS_PREFIX);
    await bus.ensureQueue(partitionQueue);
    const tracing = config.TRACING_GRPC
      ? await lifecycle.use('tracing client', createClient(runsService().Client, config.TRACING_GRPC, { token: config.INTERNAL_SECRET }), (c) => c.close())
      : undefined;

    // Set once the loops start; until then (and without loops) work waits for a dispatcher elsewhere.
    let dispatcher: BackgroundLoop | undefined;
    const components = exportComponents({
      prisma: db.prisma,
      cipher: new CredentialCipher(config.EXPORT_ENCRYPTION_KEY, config.EXPORT_ENCRYPTION_PREVIOUS_KEYS),
      bus,
      logger,
      clock: systemClock,
      settings: exportSettingsOf(config),
      egress: egressPolicyFromConfig(config),
      ambientCredentials: ambientCredentialsFor(config.EXPORT_AMBIENT_CREDENTIALS_WORKSPACES),
      destinationCheckTimeoutMs: config.EXPORT_DESTINATION_CHECK_TIMEOUT,
      queryValidator: tracing && tracingQueryValidator(tracing, logger),
      partitionQueue,
      workAvailable: () => dispatcher?.wake(),
    });

    const grpc = await lifecycle.use(
      'grpc',
      startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        logger,
        auth: { token: config.INTERNAL_SECRET },
        services: [exportProgressService().implement(exportProgressHandlers(components.progress))],
      }),
      (g) => g.shutdown(),
    );
    const app = createExportApp({
      logger,
      internalSecret: config.INTERNAL_SECRET,
      exports: components.exports,
      destinations: components.destinations,
      readiness: { database: () => db.ready(), bus: () => bus.ready() },
      liveness: { bus: () => bus.live() },
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT, slowClientLimits(config)), (h) => h.close());

    // Every replica may run these; their correctness comes from database transactions, not from being alone.
    if (config.EXPORT_BACKGROUND_LOOPS) {
      dispatcher = startBackgroundLoop('dispatcher', config.EXPORT_DISPATCH_INTERVAL, () => dispatchOnce(components.dispatcher), logger);
      const spawn = async () => {
        if ((await spawnScheduledExports(components.scheduler)) > 0) dispatcher?.wake();
      };
      const loops = [
        dispatcher,
        startBackgroundLoop('scheduler', config.EXPORT_SCHEDULE_INTERVAL, spawn, logger),
        startBackgroundLoop('sweeper', config.EXPORT_SWEEP_INTERVAL, () => sweepTimeouts(components.sweeper), logger),
      ];
      lifecycle.onShutdown('background loops', () => Promise.all(loops.map((l) => l.stop())).then(() => undefined));
    }
    return { name: 'export', url: http.url, grpcPort: grpc.port };
  });
}
