import { randomUUID } from 'node:crypto';
import { exportPartitionQueue } from '@platform/contracts';
import type { PartitionJob, PartitionOutcome } from '@platform/export-partition';
import { createMetrics } from '@platform/http-server';
import { createInProcessBus, defineQueue, type JobBus } from '@platform/job-bus';
import { silentLogger } from '@platform/logging';
import { createExportWorkerMetrics } from './export-worker.metrics';
import { PartitionJobs } from './partition-jobs.consumer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

// The consumer adapter on the in-process bus (the same delivery semantics as JetStream), with the use case replaced
// by a scripted one: this is about settling jobs, not exporting.
describe('PartitionJobs', () => {
  let bus: JobBus;
  let jobs: PartitionJobs | undefined;
  const queue = defineQueue({ name: `partitions-${randomUUID().slice(0, 8)}`, subject: 'test.partitions', schema: exportPartitionQueue.schema });
  const payload = { export_id: randomUUID(), run_id: randomUUID(), tenant_id: randomUUID() };

  beforeEach(() => {
    bus = createInProcessBus();
  });
  afterEach(async () => {
    await jobs?.stop();
    await bus.close();
  });

  function start(script: (job: PartitionJob, signal: AbortSignal, call: number) => Promise<PartitionOutcome>, ackWaitMs = 900) {
    const calls: PartitionJob[] = [];
    const metrics = createExportWorkerMetrics(createMetrics('export-worker-spec').registry);
    jobs = new PartitionJobs({
      bus,
      queue,
      exportPartition: (job, signal) => {
        calls.push(job);
        return script(job, signal, calls.length);
      },
      logger: silentLogger,
      metrics,
      concurrency: 1,
      ackWaitMs,
      retryDelayMs: 300,
      peersReady: async () => true,
    });
    return { calls, metrics, started: jobs.start() };
  }

  const outcomes = async (metrics: ReturnType<typeof createExportWorkerMetrics>) =>
    Object.fromEntries((await metrics.partitions.get()).values.map((v) => [v.labels.outcome, v.value]));

  it('runs the use case with the job’s ids and acks it once it completed', async () => {
    const { calls, metrics, started } = start(async () => ({ status: 'completed', rows: 10, files: 1 }));
    await started;
    await bus.publish(queue, payload);
    await waitFor('the job', () => calls.length === 1);
    await sleep(1_200); // past the ack wait: an unsettled job would be back by now
    expect(calls).toEqual([{ exportId: payload.export_id, runId: payload.run_id }]);
    expect(await outcomes(metrics)).toEqual({ completed: 1 });
  });

  it('terminates a job whose run is abandoned, and acks reported failures (the export service retries those)', async () => {
    const { calls, metrics, started } = start(async (_, __, n) =>
      n === 1 ? { status: 'abandoned', reason: 'attempt 0 is not the current attempt' } : { status: 'failed', error: 'Access denied', retryable: false },
    );
    await started;
    await bus.publish(queue, payload);
    await bus.publish(queue, { ...payload, run_id: randomUUID() });
    await waitFor('both jobs', () => calls.length === 2);
    await sleep(1_200);
    expect(calls).toHaveLength(2);
    expect(await outcomes(metrics)).toEqual({ abandoned: 1, failed: 1 });
  });

  it('hands the job back with the retry delay when the export service cannot be reached', async () => {
    const at: number[] = [];
    const { calls, metrics, started } = start(async (_, __, n) => {
      at.push(Date.now());
      if (n === 1) throw new Error('GetRunCheckpoint failed: UNAVAILABLE');
      return { status: 'completed', rows: 1, files: 1 };
    });
    await started;
    await bus.publish(queue, payload);
    await waitFor('the redelivery', () => calls.length === 2);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(280);
    expect(await outcomes(metrics)).toEqual({ retry_later: 1, completed: 1 });
  });

  it('keeps a long job with working() heartbeats past the ack wait', async () => {
    let finished = false;
    const { calls, started } = start(async () => {
      await sleep(2_500);
      finished = true;
      return { status: 'completed', rows: 1, files: 1 };
    }, 900);
    await started;
    await bus.publish(queue, payload);
    await waitFor('the job to finish', () => finished);
    await sleep(1_200);
    expect(calls).toHaveLength(1);
  });

  it('on stop, aborts the running job and hands it back at once for another consumer', async () => {
    let aborted = false;
    const { calls, started } = start(
      (_, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          }),
        ),
    );
    await started;
    await bus.publish(queue, payload);
    await waitFor('the job', () => calls.length === 1);
    await jobs?.stop();
    expect(aborted).toBe(true);

    const second = start(async () => ({ status: 'completed', rows: 1, files: 1 }));
    await second.started;
    await waitFor('the handed-back job', () => second.calls.length === 1, 2_000);
    expect(second.calls[0]).toEqual({ exportId: payload.export_id, runId: payload.run_id });
  });

  it('does not consume before its peers are ready, and becomes ready once consuming', async () => {
    let peers = false;
    const calls: PartitionJob[] = [];
    jobs = new PartitionJobs({
      bus,
      queue,
      exportPartition: async (job) => {
        calls.push(job);
        return { status: 'completed', rows: 0, files: 0 };
      },
      logger: silentLogger,
      metrics: createExportWorkerMetrics(createMetrics('export-worker-spec').registry),
      concurrency: 1,
      ackWaitMs: 5_000,
      retryDelayMs: 100,
      peersReady: async () => peers,
    });
    const started = jobs.start();
    await bus.publish(queue, payload);
    await sleep(1_200);
    expect(calls).toEqual([]);
    expect(await jobs.ready()).toBe(false);
    peers = true;
    await started;
    await waitFor('the job', () => calls.length === 1);
    expect(await jobs.ready()).toBe(true);
  });
});
