import { z } from 'zod';
import { defineQueue } from '@platform/job-bus';

/**
 * One export run (a date partition of a bulk export), published by the export service's dispatcher on the
 * JetStream work queue and processed by an export-worker replica.
 */
export const exportPartitionQueue = defineQueue({
  name: 'export-partitions',
  subject: 'export.partitions',
  schema: z.object({
    export_id: z.string().uuid(),
    run_id: z.string().uuid(),
    tenant_id: z.string().uuid(),
  }),
});

/** The durable consumer name shared by all export-worker replicas. */
export const EXPORT_WORKER_DURABLE = 'export-workers';
