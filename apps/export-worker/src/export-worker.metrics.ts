import { Counter, Histogram, type Registry } from 'prom-client';

export interface ExportWorkerMetrics {
  /** Partition jobs by outcome: completed, cancelled, failed, skipped, abandoned, retry_later, handed_back. */
  partitions: Counter<'outcome'>;
  partitionSeconds: Histogram<string>;
}

export function createExportWorkerMetrics(registry: Registry): ExportWorkerMetrics {
  return {
    partitions: new Counter({
      name: 'export_worker_partition_jobs_total',
      help: 'Partition jobs handled, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    partitionSeconds: new Histogram({
      name: 'export_worker_partition_job_seconds',
      help: 'Time spent on one partition job',
      buckets: [1, 5, 15, 60, 300, 900, 3_600, 14_400],
      registers: [registry],
    }),
  };
}
