import { createInProcessBus } from './in-process/in-process.bus';
import { createJetStreamBus } from './jetstream/jetstream.bus';
import type { JobBusLogger } from './lib/job-bus.logger';
import type { JobBus } from './lib/job-bus.types';

/** Options of {@link createJobBus}. */
export interface CreateJobBusOptions {
  /** NATS URL(s); without one the bus runs in process (embedded mode). */
  natsUrl?: string;
  streamPrefix?: string;
  logger?: JobBusLogger;
  duplicateWindowMs?: number;
  /** JetStream only: copies of each stream in the cluster. */
  streamReplicas?: number;
}

/** Picks the JetStream bus when `natsUrl` is set, else the in-process one. */
export async function createJobBus(options: CreateJobBusOptions = {}): Promise<JobBus> {
  const { natsUrl, streamPrefix, logger, duplicateWindowMs, streamReplicas } = options;
  if (natsUrl) {
    const servers = natsUrl.split(',').map((s) => s.trim()).filter(Boolean);
    return createJetStreamBus({ servers, streamPrefix, logger, duplicateWindowMs, streamReplicas });
  }
  logger?.info({}, 'job-bus: no NATS URL, using the in-process bus');
  return createInProcessBus({ logger, duplicateWindowMs });
}
