import { EXPORT_WORKER_DURABLE, exportPartitionQueue } from '@platform/contracts';
import type { PartitionJob, PartitionOutcome } from '@platform/export-partition';
import type { Consumer, Job, JobBus, JobData } from '@platform/job-bus';
import type { Logger } from '@platform/logging';
import type { ExportWorkerMetrics } from './export-worker.metrics';

export type PartitionQueue = typeof exportPartitionQueue;
type PartitionJobData = JobData<PartitionQueue>;

export interface PartitionJobsDeps {
  bus: JobBus;
  /** `exportPartitionQueue`; tests pass a queue of their own so they never share a stream with other tests. */
  queue: PartitionQueue;
  /** The durable consumer all replicas share (`EXPORT_WORKER_DURABLE`, with the installation's NATS_PREFIX). */
  durable?: string;
  /** The use case, bound to its adapters; `signal` aborts on shutdown. */
  exportPartition: (job: PartitionJob, signal: AbortSignal) => Promise<PartitionOutcome>;
  logger: Logger;
  metrics: ExportWorkerMetrics;
  concurrency: number;
  ackWaitMs: number;
  /** Redelivery delay when the export service could not be reached. */
  retryDelayMs: number;
  /** Checked before consuming starts, and again every second until it holds (the peers the jobs need). */
  peersReady: () => Promise<boolean>;
}

const PEER_POLL_MS = 1_000;

/**
 * The durable pull consumer of partition jobs: decode and validate (done by the bus, which terminates invalid
 * payloads) → use case → ack. Long jobs send `working()` heartbeats; a job whose export service could not be reached
 * is handed back with a delay, and in-flight jobs are handed back at once on shutdown (they resume from their
 * checkpoint). Retries of failed attempts are the export service's decision, so a reported failure is acked.
 */
export class PartitionJobs {
  private consumer?: Consumer;
  private starting?: Promise<void>;
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: PartitionJobsDeps) {}

  private get durable(): string {
    return this.deps.durable ?? EXPORT_WORKER_DURABLE;
  }

  /** Starts consuming once the peers answer; resolves when consuming or stopped. */
  start(): Promise<void> {
    this.starting ??= this.startWhenPeersReady();
    return this.starting;
  }

  async ready(): Promise<boolean> {
    return this.consumer ? this.consumer.ready() : false;
  }

  /** Stops taking jobs, hands the in-flight ones back, and waits for their handlers. */
  async stop(): Promise<void> {
    this.shutdown.abort(new Error('export worker shutting down'));
    await this.starting?.catch(() => undefined);
    await this.consumer?.stop();
  }

  private async startWhenPeersReady(): Promise<void> {
    const { signal } = this.shutdown;
    for (let waits = 0; !signal.aborted && !(await this.deps.peersReady().catch(() => false)); waits++) {
      if (waits % 30 === 0) this.deps.logger.info({}, 'export worker: waiting for the tracing and export services before consuming');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PEER_POLL_MS);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
    if (signal.aborted) return;
    this.consumer = await this.deps.bus.consume(this.deps.queue, (job) => this.handle(job), {
      durable: this.durable,
      concurrency: this.deps.concurrency,
      ackWaitMs: this.deps.ackWaitMs,
      defaultNakDelayMs: this.deps.retryDelayMs,
    });
    this.deps.logger.info({ durable: this.durable, queue: this.deps.queue.name, concurrency: this.deps.concurrency }, 'export worker: consuming partition jobs');
  }

  private async handle(job: Job<PartitionJobData>): Promise<void> {
    const { export_id: exportId, run_id: runId, tenant_id: tenantId } = job.data;
    const fields = { jobId: job.id, exportId, runId, tenantId, delivery: job.attempt };
    const { logger, metrics } = this.deps;
    const heartbeat = setInterval(() => job.working(), Math.max(250, Math.floor(this.deps.ackWaitMs / 3)));
    const timer = metrics.partitionSeconds.startTimer();
    try {
      const outcome = await this.deps.exportPartition({ exportId, runId }, this.shutdown.signal);
      metrics.partitions.inc({ outcome: outcome.status });
      logger.info({ ...fields, ...outcome }, `export worker: partition ${outcome.status}`);
      if (outcome.status === 'abandoned') job.term(outcome.reason);
      else job.ack();
    } catch (err) {
      if (this.shutdown.signal.aborted) {
        metrics.partitions.inc({ outcome: 'handed_back' });
        logger.info(fields, 'export worker: partition handed back on shutdown');
        job.nak(0);
        return;
      }
      metrics.partitions.inc({ outcome: 'retry_later' });
      logger.warn({ ...fields, err, retryInMs: this.deps.retryDelayMs }, 'export worker: export service unreachable, retrying the job later');
      job.nak(this.deps.retryDelayMs);
    } finally {
      clearInterval(heartbeat);
      timer();
    }
  }
}
