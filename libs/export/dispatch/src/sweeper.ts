import type { Logger } from '@platform/logging';
import type { Clock, ExportSettings, RunProgressRepository } from '@platform/export-data-access';

export interface SweeperDeps {
  progress: RunProgressRepository;
  clock: Clock;
  logger: Logger;
  settings: Pick<ExportSettings, 'runTimeoutMs' | 'exportTimeoutMs'>;
}

/** One timeout pass: whole exports past their timeout (TimedOut, no retry), then run attempts past theirs (retried). */
export async function sweepTimeouts(deps: SweeperDeps): Promise<{ exports: number; attempts: number }> {
  const now = deps.clock();
  const exports = await deps.progress.timeOutExports(deps.settings.exportTimeoutMs, now);
  const attempts = await deps.progress.timeOutAttempts(deps.settings.runTimeoutMs, now);
  if (exports || attempts) deps.logger.info({ exports, attempts }, 'export sweeper: timeouts applied');
  return { exports, attempts };
}
