// The job bus on a 3-node NATS JetStream cluster of the test's own (R3 streams), under load, while nodes die: the
// stream leader is killed (a failover), then all three nodes are down for ~30 s (NATS_FAULT_OUTAGE to change it) and
// come back, then the cluster loses the stream and durable (storage lost). Every job published is handled exactly once
// by id (handlers are idempotent, as the house style requires), and work resumes within the bounds asserted below.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { UnavailableError } from '@platform/errors';
import { createJetStreamBus, defineQueue, silentLogger, type Job, type JetStreamJobBus, type JobBusLogger } from '@platform/job-bus';
import { natsServerBinary, startScratchNatsCluster, type ScratchNatsCluster } from '@platform/testing';
import { connect } from 'nats';

const binary = natsServerBinary();
if (!binary && process.env.REQUIRE_SERVICES === '1') throw new Error('nats-server is not installed, and REQUIRE_SERVICES=1 requires it (NATS fault e2e)');
if (!binary) process.stderr.write('SKIPPED: NATS cluster fault tests (install nats-server or set NATS_SERVER_BIN)\n');
const describeCluster = binary ? describe : describe.skip;

const OUTAGE_MS = Number(process.env.NATS_FAULT_OUTAGE_MS ?? 30_000);
// Bounds asserted (measured figures are printed; see docs/scale.md).
const LEADER_FAILOVER_STALL_MS = 15_000;
const RECOVERY_AFTER_RESTART_MS = 45_000;

const schema = z.object({ n: z.number().int() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const report = (line: string) => process.stderr.write(`nats-faults: ${line}\n`);

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
  return Date.now() - started;
}

/** Handled jobs by id: an idempotent handler's view (a redelivery of a handled id changes nothing). */
class Ledger {
  readonly handled = new Map<string, number>();
  /** First deliveries per id: more than one means the stream stored one job twice (a publish retry not deduped). */
  readonly stored = new Map<string, number>();
  deliveries = 0;
  lastHandledAt = 0;
  /** Largest gap between two handled jobs since `from` (the stall a fault caused). */
  maxGapSince(from: number, times: number[]): number {
    const after = times.filter((t) => t >= from).sort((a, b) => a - b);
    let gap = 0;
    for (let i = 1; i < after.length; i++) gap = Math.max(gap, after[i] - after[i - 1]);
    return gap;
  }
  readonly times: number[] = [];
  handle = async (job: Job<{ n: number }>) => {
    this.deliveries++;
    if (job.attempt === 1) this.stored.set(job.id, (this.stored.get(job.id) ?? 0) + 1);
    await sleep(2);
    if (!this.handled.has(job.id)) this.times.push(Date.now());
    this.handled.set(job.id, (this.handled.get(job.id) ?? 0) + 1);
    this.lastHandledAt = Date.now();
  };
}

/** Publishes with a fixed id until the bus accepts it: a retry after a lost acknowledgement is dropped as a duplicate. */
async function publishSurely(bus: JetStreamJobBus, queue: ReturnType<typeof newQueue>, n: number, failures: { count: number }): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await bus.publish(queue, { n }, { msgId: `job-${n}` });
      return Date.now() - started;
    } catch (err) {
      failures.count++;
      if (!(err instanceof UnavailableError)) report(`publish ${n} failed: ${(err as Error).message}`);
      await sleep(200);
    }
  }
}

function newQueue() {
  const tag = randomBytes(5).toString('hex');
  return defineQueue({ name: `faults_${tag}`, subject: `faults.${tag}.jobs`, schema });
}

describeCluster('job bus on a 3-node NATS cluster: node and cluster loss', () => {
  let cluster: ScratchNatsCluster;
  const buses: JetStreamJobBus[] = [];
  const logger: JobBusLogger = process.env.NATS_FAULT_LOG ? { ...silentLogger, warn: (o, m) => report(`${m} ${JSON.stringify(o)}`), info: (o, m) => report(`${m} ${JSON.stringify(o)}`) } : silentLogger;
  const bus = async () => {
    const b = await createJetStreamBus({ servers: cluster.natsUrl.split(','), streamReplicas: 3, logger });
    buses.push(b);
    return b;
  };

  beforeAll(async () => {
    cluster = await startScratchNatsCluster({ size: 3 });
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close().catch(() => undefined)));
    await cluster?.stop();
  });

  async function streamInfo(stream: string) {
    const nc = await connect({ servers: cluster.natsUrl.split(',') });
    try {
      return await (await nc.jetstreamManager()).streams.info(stream);
    } finally {
      await nc.close();
    }
  }

  it('creates R3 streams, raises an R1 stream to R3, and never lowers an existing stream\'s replicas', async () => {
    const queue = newQueue();
    const r3 = await bus();
    await r3.ensureQueue(queue);
    expect((await streamInfo(queue.name)).config.num_replicas).toBe(3);
    const old = newQueue();
    const r1Creator = await createJetStreamBus({ servers: cluster.natsUrl, streamReplicas: 1 });
    buses.push(r1Creator);
    await r1Creator.ensureQueue(old);
    expect((await streamInfo(old.name)).config.num_replicas).toBe(1);
    await (await bus()).ensureQueue(old);
    expect((await streamInfo(old.name)).config.num_replicas).toBe(3);
    // A replica configured with 1 (an old default) must not shrink it back.
    const warnings: string[] = [];
    const r1 = await createJetStreamBus({ servers: cluster.natsUrl, streamReplicas: 1, logger: { ...silentLogger, warn: (_o, m) => void warnings.push(m) } });
    buses.push(r1);
    await r1.ensureQueue(queue);
    expect((await streamInfo(queue.name)).config.num_replicas).toBe(3);
    expect(warnings).toEqual([expect.stringContaining('never lowered')]);
    await r3.deleteQueue(queue);
  });

  it('loses and duplicates no job when the stream leader is killed under load', async () => {
    const queue = newQueue();
    const [publisher, worker] = [await bus(), await bus()];
    const ledger = new Ledger();
    const consumer = await worker.consume(queue, ledger.handle, { durable: 'workers', concurrency: 8, ackWaitMs: 5_000 });
    const total = 600;
    const failures = { count: 0 };
    let killedAt = 0;
    let leader = '';
    let publishStall = 0;
    for (let n = 0; n < total; n++) {
      if (n === total / 3) {
        leader = (await streamInfo(queue.name)).cluster?.leader ?? '';
        await cluster.kill(cluster.indexOf(leader));
        killedAt = Date.now();
      }
      const took = await publishSurely(publisher, queue, n, failures);
      if (killedAt) publishStall = Math.max(publishStall, took);
      await sleep(5);
    }
    await until('every job to be handled', () => ledger.handled.size === total, 60_000);
    await sleep(500); // a late redelivery would show up here
    const stall = ledger.maxGapSince(killedAt, ledger.times);
    const newLeader = (await streamInfo(queue.name)).cluster?.leader;
    report(`leader ${leader} killed: longest stall in handling ${stall} ms, longest publish ${publishStall} ms, ${failures.count} publish retries, ${ledger.deliveries - total} redeliveries, new leader ${newLeader}`);
    expect(ledger.handled.size).toBe(total);
    expect([...ledger.handled.keys()].sort()).toEqual(Array.from({ length: total }, (_, n) => `job-${n}`).sort());
    expect([...ledger.stored.values()].every((count) => count === 1)).toBe(true);
    expect(newLeader).not.toBe(leader);
    expect(stall).toBeLessThan(LEADER_FAILOVER_STALL_MS);
    expect(publishStall).toBeLessThan(LEADER_FAILOVER_STALL_MS);
    await consumer.stop();
    await cluster.start(cluster.indexOf(leader));
    await cluster.waitHealthy();
    await publisher.deleteQueue(queue);
  });

  it(`reconnects after all 3 nodes are down for ${OUTAGE_MS / 1000} s, and handles every job published before and after`, async () => {
    const queue = newQueue();
    const [publisher, worker] = [await bus(), await bus()];
    const ledger = new Ledger();
    // Slow handling, so jobs are still queued (and some in flight) when the cluster goes.
    const slow = async (job: Job<{ n: number }>) => {
      await sleep(20);
      await ledger.handle(job);
    };
    const consumer = await worker.consume(queue, slow, { durable: 'workers', concurrency: 2, ackWaitMs: 5_000 });
    const failures = { count: 0 };
    for (let n = 0; n < 200; n++) await publishSurely(publisher, queue, n, failures);

    for (let i = 0; i < 3; i++) await cluster.kill(i);
    const downAt = Date.now();
    const handledAtKill = ledger.handled.size;
    // While it is down: not ready, still live (it heals), and a publish is refused at once naming NATS.
    await until('the bus to notice', async () => !(await publisher.ready()), 10_000);
    expect(publisher.live()).toBe(true);
    const refusedIn = Date.now();
    await expect(publisher.publish(queue, { n: -1 })).rejects.toMatchObject({ name: 'ServiceUnavailableError', message: expect.stringContaining('NATS'), retryAfterSeconds: 5 });
    expect(Date.now() - refusedIn).toBeLessThan(1_000);
    expect(() => publisher.requireConnection()).toThrow(/NATS/);
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt)));
    expect(publisher.live()).toBe(true);
    expect(worker.live()).toBe(true);

    for (let i = 0; i < 3; i++) await cluster.start(i);
    const restartedAt = Date.now();
    // Jobs published once it is back (retried through the election that follows a restart).
    const after = (async () => {
      for (let n = 200; n < 300; n++) await publishSurely(publisher, queue, n, failures);
    })();
    const readyIn = await until('the bus to be ready again', () => publisher.ready(), RECOVERY_AFTER_RESTART_MS);
    await after;
    const allIn = await until('every job to be handled', () => ledger.handled.size === 300, RECOVERY_AFTER_RESTART_MS);
    const firstHandled = ledger.times.find((t) => t >= restartedAt) ?? 0;
    report(
      `all 3 nodes down ${Date.now() - downAt - (Date.now() - restartedAt)} ms with ${200 - handledAtKill} of 200 jobs unhandled: ` +
        `ready ${readyIn} ms after the restart, first job handled after ${firstHandled - restartedAt} ms, all 300 after ${Date.now() - restartedAt} ms ` +
        `(${allIn} ms after ready), ${failures.count} publish retries, ${ledger.deliveries - 300} redeliveries ` +
        `(${[...ledger.stored.values()].filter((c) => c > 1).length} of them as attempt 1)`,
    );
    expect(handledAtKill).toBeLessThan(200);
    // Every id handled; repeats (acks lost with the nodes, whose consumer state a crash may roll back so a repeat can
    // even come as attempt 1) are absorbed by the idempotent handler and reported.
    expect([...ledger.handled.keys()].sort()).toEqual(Array.from({ length: 300 }, (_, n) => `job-${n}`).sort());
    expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_AFTER_RESTART_MS);
    expect(await consumer.ready()).toBe(true);
    await consumer.stop();
    await publisher.deleteQueue(queue);
  });

  it('creates the stream and durable again when the cluster lost them, and consumes on', async () => {
    const queue = newQueue();
    const publisher = await bus();
    const worker = await createJetStreamBus({ servers: cluster.natsUrl, streamReplicas: 3, verifyEveryMs: 500 });
    buses.push(worker);
    const ledger = new Ledger();
    const consumer = await worker.consume(queue, ledger.handle, { durable: 'workers', ackWaitMs: 5_000 });
    const failures = { count: 0 };
    await publishSurely(publisher, queue, 1, failures);
    await until('the first job', () => ledger.handled.size === 1, 10_000);

    // What a cluster that lost its storage looks like to its clients: the stream and its durable are gone.
    await publisher.deleteQueue(queue);
    const lostAt = Date.now();
    await publishSurely(publisher, queue, 2, failures);
    const handledIn = await until('the job published after the loss', () => ledger.handled.size === 2, 15_000);
    report(`stream and durable lost: job handled ${handledIn} ms after the loss (${Date.now() - lostAt} ms in all)`);
    expect(await consumer.ready()).toBe(true);
    await consumer.stop();
    await publisher.deleteQueue(queue);
  });
});

describeCluster('job bus whose NATS connection closes for good', () => {
  let node: ScratchNatsCluster;
  afterAll(async () => node?.stop());

  it('stays live through an outage, and is wedged (liveness fails) once the server refuses it for good', async () => {
    node = await startScratchNatsCluster({ size: 1 });
    const errors: string[] = [];
    const bus = await createJetStreamBus({ servers: node.natsUrl, logger: { ...silentLogger, error: (_o, m) => void errors.push(m) } });
    expect(bus.live()).toBe(true);
    // The server comes back demanding credentials this client does not have: nats.js closes after repeated
    // authorization errors, whatever its reconnect limit. Only a restart (with new settings) helps.
    await node.kill(0);
    expect(bus.live()).toBe(true);
    await node.start(0, ['--user', 'someone', '--pass', 'else']);
    const wedgedIn = await until('the bus to be wedged', () => !bus.live(), 30_000);
    report(`connection refused for good: wedged ${wedgedIn} ms after the server came back`);
    expect(await bus.ready()).toBe(false);
    expect(() => bus.requireConnection()).toThrow(/NATS.*closed for good/);
    expect(errors).toEqual([expect.stringContaining('wedged')]);
    await bus.close();
  });
});
