import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { resolveConsumeOptions, type ResolvedConsumeOptions } from '../lib/consume-options.schema';
import { deliverJob, type RawDelivery } from '../lib/deliver-job';
import { encodePayload, type QueueDefinition } from '../lib/define-queue';
import { silentLogger, type JobBusLogger } from '../lib/job-bus.logger';
import type { ConsumeOptions, Consumer, JobBus, JobHandler, PublishOptions, PublishResult } from '../lib/job-bus.types';
import { InFlightPool } from '../lib/in-flight-pool';
import { MemoryQueue, type MemorySubscriber } from './memory-queue';

/** Options of {@link createInProcessBus}. */
export interface InProcessBusOptions {
  logger?: JobBusLogger;
  /** How long a `msgId` is remembered for dedupe (default 2 min, JetStream's default). */
  duplicateWindowMs?: number;
}

/**
 * The embedded job bus (no NATS): same semantics as the JetStream bus, in memory, so jobs do
 * not survive a restart. Queues are keyed by name; one durable per queue, as on a work queue.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): JobBus {
  const logger = options.logger ?? silentLogger;
  const duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
  const queues = new Map<string, MemoryQueue>();
  const consumers = new Set<Pick<Consumer, 'stop'>>();
  let closed = false;

  const queueFor = (queue: QueueDefinition): MemoryQueue => {
    if (closed) throw new Error('job-bus: the bus is closed');
    let memory = queues.get(queue.name);
    if (!memory) {
      memory = new MemoryQueue(queue.name, duplicateWindowMs, logger);
      queues.set(queue.name, memory);
    }
    return memory;
  };

  return {
    kind: 'in-process',
    async ensureQueue(queue) {
      queueFor(queue);
    },
    async publish<S extends z.ZodType>(queue: QueueDefinition<S>, payload: z.input<S>, opts: PublishOptions = {}): Promise<PublishResult> {
      const body = encodePayload(queue, payload);
      const id = opts.msgId ?? randomUUID();
      const { duplicate } = queueFor(queue).publish(id, body, { ...opts.headers });
      return { id, duplicate };
    },
    async consume<S extends z.ZodType>(queue: QueueDefinition<S>, handler: JobHandler<z.output<S>>, opts: ConsumeOptions): Promise<Consumer> {
      const resolved = resolveConsumeOptions(opts);
      const memory = queueFor(queue);
      memory.bindDurable(resolved);
      const consumer = new InProcessConsumer(queue, memory, handler, resolved, logger, () => !closed);
      consumers.add(consumer);
      consumer.onStopped = () => consumers.delete(consumer);
      return consumer;
    },
    async ready() {
      return !closed;
    },
    // Nothing to lose a connection to.
    live: () => true,
    requireConnection: () => undefined,
    async close() {
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      queues.forEach((q) => q.close());
    },
  };
}

class InProcessConsumer<S extends z.ZodType> implements Consumer, MemorySubscriber {
  onStopped?: () => void;
  private readonly pool: InFlightPool;
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    private readonly queueDef: QueueDefinition<S>,
    memory: MemoryQueue,
    private readonly handler: JobHandler<z.output<S>>,
    private readonly opts: ResolvedConsumeOptions,
    private readonly logger: JobBusLogger,
    private readonly busOpen: () => boolean,
  ) {
    this.pool = new InFlightPool(
      opts.concurrency,
      (err) => logger.error({ queue: queueDef.name, err }, 'job-bus: delivery failed'),
      () => memory.schedulePump(),
    );
    this.unsubscribe = memory.subscribe(this);
  }

  get queue(): string {
    return this.queueDef.name;
  }

  get durable(): string {
    return this.opts.durable;
  }

  hasCapacity(): boolean {
    return !this.stopped && this.pool.free > 0;
  }

  deliver(delivery: RawDelivery): void {
    this.pool.run(() => deliverJob(this.queueDef, delivery, this.handler, this.opts, this.logger));
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.unsubscribe();
      this.onStopped?.();
    }
    await this.pool.drain();
  }

  async ready(): Promise<boolean> {
    return !this.stopped && this.busOpen();
  }
}
