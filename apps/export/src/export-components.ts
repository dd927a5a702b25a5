import type { EgressPolicy } from '@platform/egress';
import { CredentialCipher } from '@platform/export-s3';
import {
  DestinationsRepository,
  DispatchRepository,
  ExportsRepository,
  RunProgressRepository,
  SchedulesRepository,
  type Clock,
  type ExportSettings,
  type PrismaClient,
} from '@platform/export-data-access';
import type { DestinationsDeps } from '@platform/export-destinations';
import type { DispatcherDeps, RunProgressDeps, SweeperDeps } from '@platform/export-dispatch';
import type { ExportQueryValidator, ExportsDeps, SchedulerDeps } from '@platform/export-exports';
import type { JobBus, QueueDefinition } from '@platform/job-bus';
import type { exportPartitionQueue } from '@platform/contracts';
import type { Logger } from '@platform/logging';
import type { ExportConfig } from './config';

export interface ExportComponentsOptions {
  prisma: PrismaClient;
  cipher: CredentialCipher;
  bus: Pick<JobBus, 'publish' | 'requireConnection'>;
  logger: Logger;
  clock: Clock;
  settings: ExportSettings;
  /** Where destinations may point (the operator's egress allowlist). */
  egress: EgressPolicy;
  /** Whether a workspace may use the platform's own AWS credentials (a destination without `credentials`). */
  ambientCredentials: (tenantId: string) => boolean;
  destinationCheckTimeoutMs?: number;
  queryValidator?: ExportQueryValidator;
  partitionQueue?: QueueDefinition<typeof exportPartitionQueue.schema>;
  /** Called when partition work may be ready to dispatch (an export created, cancelled, a run ended). */
  workAvailable?: () => void;
}

/** Everything the export service's transports and loops use, wired once. */
export interface ExportComponents {
  destinations: DestinationsDeps;
  exports: ExportsDeps;
  progress: RunProgressDeps;
  dispatcher: DispatcherDeps;
  scheduler: SchedulerDeps;
  sweeper: SweeperDeps;
}

export function exportSettingsOf(config: ExportConfig): ExportSettings {
  return {
    maxRunningExportsPerWorkspace: config.EXPORT_MAX_RUNNING_EXPORTS_PER_WORKSPACE,
    maxRunningRunsPerExport: config.EXPORT_MAX_RUNNING_RUNS_PER_EXPORT,
    maxQueuedRunsPerWorkspace: config.EXPORT_MAX_QUEUED_RUNS_PER_WORKSPACE,
    maxRetries: config.EXPORT_RUN_MAX_RETRIES,
    retryDelayMs: config.EXPORT_RETRY_DELAY,
    runTimeoutMs: config.EXPORT_RUN_TIMEOUT,
    exportTimeoutMs: config.EXPORT_TIMEOUT,
    scheduleSpawnDelayMs: config.EXPORT_SCHEDULE_SPAWN_DELAY,
    republishAfterMs: config.EXPORT_REPUBLISH_AFTER,
    redispatchAfterMs: config.EXPORT_REDISPATCH_AFTER,
  };
}

export function exportComponents(o: ExportComponentsOptions): ExportComponents {
  const destinations = new DestinationsRepository(o.prisma, o.cipher);
  const exports = new ExportsRepository(o.prisma);
  const progress = new RunProgressRepository(o.prisma, o.cipher, o.settings);
  return {
    destinations: { destinations, egress: o.egress, ambientCredentials: o.ambientCredentials, checkTimeoutMs: o.destinationCheckTimeoutMs },
    exports: { exports, destinations, queryValidator: o.queryValidator, clock: o.clock, workAvailable: o.workAvailable, requireJobQueue: () => o.bus.requireConnection() },
    progress: { progress, clock: o.clock, workAvailable: o.workAvailable },
    dispatcher: { repository: new DispatchRepository(o.prisma, o.settings), bus: o.bus, clock: o.clock, logger: o.logger, queue: o.partitionQueue },
    scheduler: { schedules: new SchedulesRepository(o.prisma), clock: o.clock, logger: o.logger, settings: o.settings },
    sweeper: { progress, clock: o.clock, logger: o.logger, settings: o.settings },
  };
}
