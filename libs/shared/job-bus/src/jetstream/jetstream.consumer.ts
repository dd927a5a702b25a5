import type { JetStreamManager, Consumer as NatsConsumer, NatsConnection, Subscription } from 'nats';
import type { z } from 'zod';
import type { ResolvedConsumeOptions } from '../lib/consume-options.schema';
import { deliverJob } from '../lib/deliver-job';
import type { QueueDefinition } from '../lib/define-queue';
import { InFlightPool } from '../lib/in-flight-pool';
import type { JobBusLogger } from '../lib/job-bus.logger';
import type { Consumer, JobHandler } from '../lib/job-bus.types';
import { toRawDelivery } from './jetstream-delivery';
import { isMissingTopology } from './jetstream-topology';
import { watchMaxDeliveries } from './max-deliveries.advisory';

export interface JetStreamConsumerDeps<S extends z.ZodType> {
  nc: NatsConnection;
  jsm: JetStreamManager;
  pull: NatsConsumer;
  /** Creates the stream and durable again where missing and returns a fresh handle (after a cluster lost them). */
  bind: () => Promise<NatsConsumer>;
  stream: string;
  queue: QueueDefinition<S>;
  handler: JobHandler<z.output<S>>;
  opts: ResolvedConsumeOptions;
  logger: JobBusLogger;
  fetchExpiresMs: number;
  /** How often an idle loop checks that its durable still exists (a pull on a missing one just expires). */
  verifyEveryMs: number;
}

const RETRY_FETCH_MS = 1_000;
const RETRY_VERIFY_MS = 2_000;

/**
 * A pull loop that only asks the server for as many messages as it has free slots, so a process
 * never holds more than `concurrency` jobs; the rest stay available to other replicas.
 */
export class JetStreamConsumer<S extends z.ZodType> implements Consumer {
  private readonly pool: InFlightPool;
  private pull: NatsConsumer;
  /** Set on a reconnect or a failed fetch: check the durable (and bind again if it is gone) before the next pull. */
  private verifyNow = false;
  private verifiedAt = Date.now();
  private stopping = false;
  private loop?: Promise<void>;
  private wakePause?: () => void;
  private advisories?: Subscription;

  constructor(private readonly deps: JetStreamConsumerDeps<S>) {
    this.pull = deps.pull;
    this.pool = new InFlightPool(deps.opts.concurrency, (err) =>
      deps.logger.error({ queue: deps.queue.name, durable: deps.opts.durable, err }, 'job-bus: delivery failed'),
    );
  }

  get queue(): string {
    return this.deps.queue.name;
  }

  get durable(): string {
    return this.deps.opts.durable;
  }

  start(): void {
    const { nc, jsm, stream, logger } = this.deps;
    this.advisories ??= watchMaxDeliveries(nc, jsm, { stream, queue: this.queue, durable: this.durable }, logger);
    this.loop ??= this.run();
  }

  /** The connection came back: the server may have lost the durable (a whole-cluster restart), so check first. */
  reconnected(): void {
    this.verifyNow = true;
    this.wakePause?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pool.wake();
    this.wakePause?.();
    await this.loop;
    await this.pool.drain();
    if (!this.deps.nc.isClosed()) this.advisories?.unsubscribe();
  }

  async ready(): Promise<boolean> {
    if (this.stopping || this.deps.nc.isClosed()) return false;
    try {
      await this.deps.jsm.consumers.info(this.deps.stream, this.durable);
      return true;
    } catch {
      return false;
    }
  }

  private async run(): Promise<void> {
    const { nc, logger } = this.deps;
    while (!this.stopping) {
      await this.pool.waitForSlot();
      if (this.stopping) break;
      try {
        if (this.verifyNow || Date.now() - this.verifiedAt >= this.deps.verifyEveryMs) await this.verify();
        await this.fetchBatch(this.pool.free);
      } catch (err) {
        if (this.stopping || nc.isClosed()) break;
        // Disconnected, no JetStream leader yet, or the durable is gone: keep trying, never give up.
        this.verifyNow = true;
        logger.warn({ queue: this.queue, durable: this.durable, err }, 'job-bus: fetch failed, retrying');
        await this.pause(RETRY_FETCH_MS);
      }
    }
  }

  /**
   * Checks the durable exists; binds again (creating stream and durable) when the server lost it. A check that merely
   * fails (a slow or electing server) never holds up fetching: it is tried again soon.
   */
  private async verify(): Promise<void> {
    const { jsm, stream, logger, bind } = this.deps;
    try {
      await jsm.consumers.info(stream, this.durable);
    } catch (err) {
      if (!isMissingTopology(err)) {
        logger.debug({ queue: this.queue, durable: this.durable, err }, 'job-bus: could not check the durable; fetching on');
        this.verifyNow = false;
        this.verifiedAt = Date.now() - this.deps.verifyEveryMs + RETRY_VERIFY_MS;
        return;
      }
      logger.warn({ queue: this.queue, durable: this.durable, stream }, 'job-bus: durable consumer is gone; creating it again');
      this.pull = await bind();
      logger.info({ queue: this.queue, durable: this.durable, stream }, 'job-bus: durable consumer bound again');
    }
    this.verifyNow = false;
    this.verifiedAt = Date.now();
  }

  private async fetchBatch(max: number): Promise<void> {
    const { queue, handler, opts, logger, fetchExpiresMs } = this.deps;
    const pull = this.pull;
    // A pending pull is not cancelled on stop (the server would still deliver into it and the
    // jobs would wait out ack_wait), so stop() lets it expire; expiry bounds stop's latency.
    const messages = await pull.fetch({ max_messages: max, expires: fetchExpiresMs });
    for await (const msg of messages) {
      if (this.stopping) {
        msg.nak(); // hand back at once to another replica
        continue;
      }
      this.pool.run(() => deliverJob(queue, toRawDelivery(msg), handler, opts, logger));
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakePause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
