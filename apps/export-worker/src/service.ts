import { tmpdir } from 'node:os';
import { EXPORT_WORKER_DURABLE, exportPartitionQueue, exportProgressService, runsService } from '@platform/contracts';
import { createDuckDbParquetWriterFactory, watchDeadStagingFolders } from '@platform/export-parquet';
import { exportPartition, GrpcProgressReporter, GrpcRunSource, s3ObjectStores, type ExportPartitionDeps } from '@platform/export-partition';
import { checkHealth, createClient } from '@platform/grpc';
import { createHttpApp, createMetrics, Lifecycle, slowClientLimits, startHttpServer, type RunningService } from '@platform/http-server';
import { egressPolicyFromConfig } from '@platform/egress';
import { ambientCredentialsFor } from '@platform/export-s3';
import { createJobBus, installationDurable, installationQueue, type JobBus } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import type { ExportWorkerConfig } from './config';
import { createExportWorkerMetrics } from './export-worker.metrics';
import { PartitionJobs, type PartitionQueue } from './partition-jobs.consumer';

// HTTP/2 flow-control window of the StreamRuns connection. With the default 64 KiB, tracing stops every 64 KiB of a
// ~4 MB batch until the worker's window update comes back: many small reads and writes on both sides. Back-pressure
// is kept, with at most this much more in flight.
const STREAM_WINDOW_BYTES = 8 * 1024 * 1024;

export interface ExportWorkerDeps {
  /** A bus shared with the export service in the same process (embedded mode); else one is made from NATS_URL. */
  bus?: JobBus;
  /** The partition job queue; default `exportPartitionQueue` (tests use one of their own). */
  queue?: PartitionQueue;
}

/**
 * A stateless export worker: consumes partition jobs, reads runs from tracing over gRPC, writes Parquet to the
 * destination bucket and reports progress to the export service. Its HTTP port serves only probes and metrics;
 * it is ready when the bus, the two gRPC peers and the consumer are.
 */
export function startExportWorker(config: ExportWorkerConfig, logger: Logger, deps: ExportWorkerDeps = {}): Promise<RunningService> {
  return Lifecycle.start(logger, async (lifecycle) => {
    // What workers killed before they could clean up (kill -9, OOM) left on this volume, up to 2 files each: removed
    // now and at every sweep while this worker runs, so a dead worker's folder goes within an interval as long as any
    // worker on the volume runs. Registered first, so it stops last (after the partition writer removed its own).
    await lifecycle.use(
      'staging folder sweep',
      watchDeadStagingFolders(config.EXPORT_WORKER_TMP_DIR ?? tmpdir(), config.EXPORT_WORKER_STAGING_SWEEP_INTERVAL, (sweep) => {
        if ('error' in sweep) logger.warn({ err: sweep.error }, 'export worker: could not sweep the staging folders of dead workers');
        else if (sweep.removed.length) logger.info({ folders: sweep.removed }, 'export worker: removed staging folders of dead workers');
      }),
      (stop) => stop(),
    );
    const bus = deps.bus ?? (await lifecycle.use('job bus', createJobBus({ natsUrl: config.NATS_URL, streamReplicas: config.NATS_STREAM_REPLICAS, logger }), (b) => b.close()));
    const queue = deps.queue ?? installationQueue(exportPartitionQueue, config.NATS_PREFIX);
    await bus.ensureQueue(queue);
    const auth = { token: config.INTERNAL_SECRET };
    const tracing = await lifecycle.use(
      'tracing client',
      createClient(runsService().Client, config.TRACING_GRPC, { ...auth, channelOptions: { 'grpc-node.flow_control_window': STREAM_WINDOW_BYTES } }),
      (c) => c.close(),
    );
    const progress = await lifecycle.use('export client', createClient(exportProgressService().Client, config.EXPORT_GRPC, auth), (c) => c.close());
    const parquet = await lifecycle.use(
      'parquet writer',
      createDuckDbParquetWriterFactory({
        tempDir: config.EXPORT_WORKER_TMP_DIR,
        threads: config.EXPORT_WORKER_DUCKDB_THREADS ?? config.EXPORT_WORKER_CONCURRENCY,
        memoryLimit: config.EXPORT_WORKER_DUCKDB_MEMORY,
      }),
      (p) => p.close(),
    );

    const useCase: ExportPartitionDeps = {
      progress: new GrpcProgressReporter(progress),
      runs: new GrpcRunSource(tracing, { deadlineMs: config.EXPORT_WORKER_STREAM_DEADLINE, batchSize: config.EXPORT_WORKER_STREAM_BATCH_SIZE }),
      objectStores: s3ObjectStores({
        partBytes: config.EXPORT_WORKER_PART_BYTES,
        concurrency: config.EXPORT_WORKER_UPLOAD_CONCURRENCY,
        logger,
        egress: egressPolicyFromConfig(config),
        ambientCredentials: ambientCredentialsFor(config.EXPORT_AMBIENT_CREDENTIALS_WORKSPACES),
      }),
      parquet,
      logger,
    };
    const serving = async (address: string) => (await checkHealth(address, { deadlineMs: 1_000 })) === 'SERVING';
    const peersReady = async () => (await Promise.all([serving(config.TRACING_GRPC), serving(config.EXPORT_GRPC)])).every(Boolean);
    const metrics = createMetrics('export-worker');
    const jobs = new PartitionJobs({
      bus,
      queue,
      durable: installationDurable(EXPORT_WORKER_DURABLE, config.NATS_PREFIX),
      exportPartition: (job, signal) =>
        exportPartition(useCase, job, { fileMaxBytes: config.EXPORT_WORKER_FILE_MAX_BYTES, fileMaxRows: config.EXPORT_WORKER_FILE_MAX_ROWS, signal }),
      logger,
      metrics: createExportWorkerMetrics(metrics.registry),
      concurrency: config.EXPORT_WORKER_CONCURRENCY,
      ackWaitMs: config.EXPORT_WORKER_ACK_WAIT,
      retryDelayMs: config.EXPORT_WORKER_RETRY_DELAY,
      peersReady,
    });

    const { app } = createHttpApp({
      service: 'export-worker',
      logger,
      metrics,
      readiness: {
        bus: () => bus.ready(),
        tracing: () => serving(config.TRACING_GRPC),
        export: () => serving(config.EXPORT_GRPC),
        consumer: () => jobs.ready(),
      },
      liveness: { bus: () => bus.live() },
      identity: { secret: config.INTERNAL_SECRET },
      routes: () => undefined,
    });
    const http = await lifecycle.use('http', startHttpServer(app, config.HOST, config.PORT, slowClientLimits(config)), (h) => h.close());
    // Registered last, so it stops first: in-flight jobs are handed back before the clients they use close.
    lifecycle.onShutdown('partition consumer', () => jobs.stop());
    void jobs.start().catch((err: unknown) => logger.error({ err }, 'export worker: could not start consuming partition jobs'));
    return { name: 'export-worker', url: http.url };
  });
}
