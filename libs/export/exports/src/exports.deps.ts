import type { Clock, DestinationsRepository, ExportsRepository } from '@platform/export-data-access';
import type { ExportQueryValidator } from './export-query-validator';

export interface ExportsDeps {
  exports: ExportsRepository;
  destinations: DestinationsRepository;
  /** Validates the filter against the tracing service; absent = not checked here (workers fail the export). */
  queryValidator?: ExportQueryValidator;
  clock: Clock;
  /** Told when an export is created or cancelled, so the dispatcher can act now rather than at its next tick. */
  workAvailable?: () => void;
  /** Throws `ServiceUnavailableError` while the job queue is unreachable: an export created then could not run. */
  requireJobQueue?: () => void;
}
