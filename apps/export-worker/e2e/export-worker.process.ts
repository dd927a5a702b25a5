// The export worker in a process of its own, exactly as `src/main.ts` runs it, but on the partition queue named by
// EXPORT_PARTITION_QUEUE_NAME / EXPORT_PARTITION_QUEUE_SUBJECT: tests and benchmarks on a shared NATS each use a
// queue of their own, so they never take each other's jobs. Spawned by worker-processes.e2e.testing.ts.
import { exportPartitionQueue } from '@platform/contracts';
import { runService } from '@platform/http-server';
import { defineQueue } from '@platform/job-bus';
import { loadExportWorkerConfig } from '../src/config';
import { startExportWorker } from '../src/service';

const name = process.env.EXPORT_PARTITION_QUEUE_NAME;
const subject = process.env.EXPORT_PARTITION_QUEUE_SUBJECT;
const queue = name && subject ? defineQueue({ name, subject, schema: exportPartitionQueue.schema }) : exportPartitionQueue;

void runService({
  name: 'export-worker',
  loadConfig: () => loadExportWorkerConfig(),
  logLevel: (config) => config.LOG_LEVEL,
  start: (config, logger) => startExportWorker(config, logger, { queue }),
});
