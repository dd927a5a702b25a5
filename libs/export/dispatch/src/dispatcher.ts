import { exportPartitionQueue } from '@platform/contracts';
import { UnavailableError } from '@platform/errors';
import type { JobBus, QueueDefinition } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import type { Clock, DispatchRepository, PartitionJob } from '@platform/export-data-access';

export interface DispatcherDeps {
  repository: DispatchRepository;
  bus: Pick<JobBus, 'publish'>;
  clock: Clock;
  logger: Logger;
  /** The partition-job queue (default `exportPartitionQueue`; tests on a shared NATS use one of their own). */
  queue?: QueueDefinition<typeof exportPartitionQueue.schema>;
}

/** The JetStream message id of a job: the bus drops a republished copy inside its duplicate window. */
export const partitionJobMessageId = (job: PartitionJob) => `${job.runId}:${job.seq}`;

async function publishAll(deps: DispatcherDeps, jobs: PartitionJob[]): Promise<number> {
  const published: PartitionJob[] = [];
  for (const job of jobs) {
    try {
      await deps.bus.publish(
        deps.queue ?? exportPartitionQueue,
        { export_id: job.exportId, run_id: job.runId, tenant_id: job.tenantId },
        { msgId: partitionJobMessageId(job) },
      );
      published.push(job);
    } catch (err) {
      // Left unconfirmed: the next ticks publish it again under the same message id.
      deps.logger.warn({ err, runId: job.runId, exportId: job.exportId }, 'export dispatcher: publish failed; will retry');
      // The job queue is unreachable: the rest would fail too (each after a timeout); the next tick tries again.
      if (err instanceof UnavailableError) break;
    }
  }
  await deps.repository.confirmPublished(published, deps.clock());
  return published.length;
}

/**
 * One dispatcher pass: due retries, then each workspace's new work within its limits, then jobs whose publish
 * was never confirmed or that no worker picked up. Marks are committed before publishing; publishing is
 * idempotent. Safe to run in every replica at once. Returns the number of jobs published.
 */
export async function dispatchOnce(deps: DispatcherDeps): Promise<number> {
  const now = deps.clock();
  const jobs: PartitionJob[] = await deps.repository.dispatchDueRetries(now);
  for (const tenantId of await deps.repository.workspacesWithWork()) {
    jobs.push(...(await deps.repository.dispatchWorkspace(tenantId, now)));
  }
  jobs.push(...(await deps.repository.redispatchUnstarted(now)));
  const seen = new Set(jobs.map(partitionJobMessageId));
  for (const job of await deps.repository.unconfirmed(now)) if (!seen.has(partitionJobMessageId(job))) jobs.push(job);
  return jobs.length ? publishAll(deps, jobs) : 0;
}
