import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from 'nats';
import { defineQueue } from '../lib/define-queue';
import type { Job } from '../lib/job-bus.types';
import { waitFor } from '../testing/async.testing';
import { describeJobBusContract } from '../testing/job-bus.contract';
import { testJobSchema } from '../testing/test-job.schema';
import { createJetStreamBus, type JetStreamJobBus } from './jetstream.bus';

const natsUrl = process.env.NATS_URL;
const repoRoot = resolve(__dirname, '../../../../..');

if (natsUrl) {
  describeJobBusContract('JetStream', {
    createBus: (logger) => createJetStreamBus({ servers: natsUrl, logger }),
    async deleteQueues(queues) {
      const admin = await createJetStreamBus({ servers: natsUrl });
      await Promise.all(queues.map((queue) => admin.deleteQueue(queue)));
      await admin.close();
    },
  });
  describe('JetStream bus: a consumer that dies', () => {
    let bus: JetStreamJobBus;
    let child: ChildProcess | undefined;
    const queue = defineQueue({ name: `dies_${randomBytes(6).toString('hex')}`, subject: `test.dies.${randomBytes(6).toString('hex')}`, schema: testJobSchema });

    beforeAll(async () => {
      bus = await createJetStreamBus({ servers: natsUrl });
    });
    afterAll(async () => {
      child?.kill('SIGKILL');
      await bus.deleteQueue(queue);
      await bus.close();
    });

    it('has its unacked job redelivered to another consumer after ack_wait', async () => {
      const ackWaitMs = 1_500;
      const published = await bus.publish(queue, { n: 7 });
      child = spawn(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '../testing/fixtures/hold-job.testing.ts'), natsUrl, queue.name, queue.subject, 'workers', String(ackWaitMs)],
        { cwd: repoRoot, env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.base.json') }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const received = await firstEvent(child, 'received', 15_000);
      expect(received).toMatchObject({ id: published.id, attempt: 1 });

      child.kill('SIGKILL');
      const killedAt = Date.now();
      const jobs: Array<{ job: Job<{ n: number }>; at: number }> = [];
      await bus.consume(queue, (job) => void jobs.push({ job, at: Date.now() }), { durable: 'workers', ackWaitMs });

      await waitFor('the redelivery', () => jobs.length === 1, ackWaitMs + 5_000);
      expect(jobs[0].job).toMatchObject({ id: published.id, attempt: 2, data: { n: 7 } });
      expect(jobs[0].at - killedAt).toBeLessThanOrEqual(ackWaitMs + 1_500);
    });
  });
  describe('JetStream bus: stream replicas', () => {
    it('creates streams with the replica count it is given; a single server refuses more than one', async () => {
      const queue = defineQueue({ name: `replicas_${randomBytes(6).toString('hex')}`, subject: `test.replicas.${randomBytes(6).toString('hex')}`, schema: testJobSchema });
      const clustered = await createJetStreamBus({ servers: natsUrl, streamReplicas: 3 });
      const single = await createJetStreamBus({ servers: natsUrl, streamReplicas: 1 });
      try {
        // The test server is one node: the request for three copies reaches it and is refused, not silently dropped.
        await expect(clustered.ensureQueue(queue)).rejects.toThrow(/replicas > 1 not supported in non-clustered mode/);
        await single.ensureQueue(queue);
        const nc = await connect({ servers: natsUrl });
        const info = await (await nc.jetstreamManager()).streams.info(single.streamName(queue));
        await nc.close();
        expect(info.config.num_replicas).toBe(1);
      } finally {
        await single.deleteQueue(queue);
        await Promise.all([clustered.close(), single.close()]);
      }
    });
  });
} else if (process.env.REQUIRE_SERVICES === '1') {
  describe('JetStream bus', () => {
    it('needs NATS_URL (REQUIRE_SERVICES=1)', () => {
      throw new Error('NATS_URL is not set but REQUIRE_SERVICES=1: the JetStream job-bus suite cannot run');
    });
  });
} else {
  // stderr, not console.warn: jest drops console output of a file whose tests are all skipped.
  process.stderr.write('SKIPPED: JetStream job-bus tests (set NATS_URL to run them)\n');
  describe.skip('JetStream bus (NATS_URL not set)', () => {
    it('runs the contract suite and the dying-consumer test against NATS', () => undefined);
  });
}

/** Resolves with the child's first stdout JSON line whose `event` matches. */
function firstEvent(child: ChildProcess, event: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`child sent no "${event}" within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before "${event}"`)));
    if (!child.stdout) return reject(new Error('child has no stdout'));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.event === event) {
        clearTimeout(timer);
        resolvePromise(parsed);
      }
    });
  });
}
