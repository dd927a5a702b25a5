import type { Clock, ExportSettings, Schedule, ScheduledWindow, SchedulesRepository } from '@platform/export-data-access';
import type { Logger } from '@platform/logging';
import { lastDueWindow, scheduleWindow } from './schedule-windows';

export interface SchedulerDeps {
  schedules: SchedulesRepository;
  clock: Clock;
  logger: Logger;
  settings: Pick<ExportSettings, 'scheduleSpawnDelayMs'>;
  /** Windows spawned per schedule per pass (catching up after downtime goes a batch at a time). */
  maxWindowsPerPass?: number;
}

/** The windows of a schedule due at `now` and not spawned yet, at most `maxWindows` of them. */
function dueWindows(schedule: Schedule, spawnDelayMs: number, now: Date, maxWindows: number): ScheduledWindow[] {
  const due = lastDueWindow(schedule.startTime, schedule.intervalHours, spawnDelayMs, now);
  const windows: ScheduledWindow[] = [];
  for (let k = schedule.lastWindow + 1; k <= due && windows.length < maxWindows; k++) {
    windows.push({ window: k, ...scheduleWindow(schedule.startTime, schedule.intervalHours, k) });
  }
  return windows;
}

/** One scheduler pass over every active schedule; safe in every replica. Returns the number of exports spawned. */
export async function spawnScheduledExports(deps: SchedulerDeps): Promise<number> {
  const now = deps.clock();
  const maxWindows = deps.maxWindowsPerPass ?? 48;
  let total = 0;
  for (const id of await deps.schedules.activeIds()) {
    try {
      const spawned = await deps.schedules.spawnWindows(id, now, (s) => dueWindows(s, deps.settings.scheduleSpawnDelayMs, now, maxWindows));
      if (spawned) deps.logger.info({ scheduleId: id, spawned }, 'export scheduler: spawned scheduled exports');
      total += spawned;
    } catch (err) {
      deps.logger.error({ err, scheduleId: id }, 'export scheduler: spawning failed');
    }
  }
  return total;
}
