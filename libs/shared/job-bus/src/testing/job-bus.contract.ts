import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineQueue, type QueueDefinition } from '../lib/define-queue';
import type { JobBusLogger } from '../lib/job-bus.logger';
import type { JobBus } from '../lib/job-bus.types';
import { createCapturingLogger } from './capturing-logger';
import { deliveryCases } from './contract/delivery.cases';
import { retryCases } from './contract/retry.cases';
import { scalingCases } from './contract/scaling.cases';
import { testJobSchema } from './test-job.schema';

export type TestQueue = QueueDefinition<typeof testJobSchema>;

/** How the contract suite gets at one implementation. */
export interface JobBusContractHarness {
  /** A fresh bus; the suite closes it after each test. */
  createBus(logger: JobBusLogger): Promise<JobBus>;
  /** Removes what the suite's queues left on the server (JetStream streams). */
  deleteQueues?(queues: QueueDefinition[]): Promise<void>;
}

/** What each group of contract cases gets from the suite. */
export interface ContractContext {
  setup(): Promise<{ bus: JobBus; log: ReturnType<typeof createCapturingLogger> }>;
  /** A queue with a unique name, so tests never see each other's jobs. */
  newQueue(): TestQueue;
  /** Another definition of `queue`'s stream with an incompatible schema, to sneak bad data past the producer check. */
  looseTwin(queue: TestQueue): QueueDefinition<z.ZodObject<{ n: z.ZodString }>>;
}

/**
 * The behaviour every `JobBus` must show, run against each implementation with its own harness.
 * Timings are short (hundreds of ms) so the whole suite stays in seconds.
 */
export function describeJobBusContract(label: string, harness: JobBusContractHarness): void {
  describe(`JobBus contract: ${label}`, () => {
    const buses: JobBus[] = [];
    const queues: QueueDefinition[] = [];

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });
    afterAll(async () => {
      await harness.deleteQueues?.(queues);
    });

    const ctx: ContractContext = {
      async setup() {
        const log = createCapturingLogger();
        const bus = await harness.createBus(log.logger);
        buses.push(bus);
        return { bus, log };
      },
      newQueue() {
        const name = `contract_${randomBytes(6).toString('hex')}`;
        const queue = defineQueue({ name, subject: `test.jobs.${name}`, schema: testJobSchema });
        queues.push(queue);
        return queue;
      },
      looseTwin(queue) {
        return defineQueue({ name: queue.name, subject: queue.subject, schema: z.object({ n: z.string() }) });
      },
    };

    deliveryCases(ctx);
    retryCases(ctx);
    scalingCases(ctx);
  });
}
