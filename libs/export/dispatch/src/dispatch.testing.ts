// Test support for dispatch: the partition queue on a subject of the test's own and a recording job bus.
import { randomUUID } from 'node:crypto';
import { exportPartitionQueue } from '@platform/contracts';
import { defineQueue, type JobBus, type PublishOptions } from '@platform/job-bus';

/** The partition queue under a subject of the test's own: streams on a shared NATS must not overlap. */
export function testPartitionQueue() {
  const tag = randomUUID().slice(0, 8);
  return defineQueue({ name: `test-export-partitions-${tag}`, subject: `test.${tag}.export.partitions`, schema: exportPartitionQueue.schema });
}

export interface PublishedJob {
  runId: string;
  exportId: string;
  msgId?: string;
  duplicate: boolean;
}

/** A real job bus whose publishes are also recorded. */
export function recordingBus(bus: JobBus): Pick<JobBus, 'publish'> & { published: PublishedJob[] } {
  const published: PublishedJob[] = [];
  return {
    published,
    publish: async (queue, payload, opts?: PublishOptions) => {
      const result = await bus.publish(queue, payload, opts);
      const data = payload as { run_id: string; export_id: string };
      published.push({ runId: data.run_id, exportId: data.export_id, msgId: opts?.msgId, duplicate: result.duplicate });
      return result;
    },
  };
}
