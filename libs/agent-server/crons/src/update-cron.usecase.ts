import type { AccessFilter } from '@platform/agent-server-auth';
import type { Cron, CronChanges } from './cron';
import { nextRunAfter } from './cron-schedule';
import { checkSchedule } from './create-cron.usecase';
import type { CronsDeps } from './crons.deps';
import type { CronState } from './crons.repository';

/**
 * `PATCH /runs/crons/{id}`: the fields given replace the cron's (`payload` key by key; `metadata` merges into the
 * cron's and its runs'). A new schedule, time zone, end time or a re-enable recomputes the next run from now.
 */
export function updateCron(deps: Pick<CronsDeps, 'crons' | 'now'>, cronId: string, changes: CronChanges, visible?: AccessFilter): Promise<Cron> {
  const change = (current: Cron): CronState => {
    const schedule = changes.schedule?.trim() ?? current.schedule;
    const timezone = changes.timezone === undefined ? current.timezone : changes.timezone;
    const endTime = changes.end_time === undefined ? (current.end_time ? new Date(current.end_time) : null) : changes.end_time;
    const enabled = changes.enabled ?? current.enabled;
    checkSchedule(schedule, timezone);
    const metadata = { ...current.metadata, ...changes.metadata };
    const rescheduled =
      changes.schedule !== undefined || changes.timezone !== undefined || changes.end_time !== undefined || (enabled && !current.enabled);
    return {
      schedule,
      timezone,
      end_time: endTime,
      enabled,
      on_run_completed: current.thread_id === null ? (changes.on_run_completed ?? current.on_run_completed) : null,
      payload: { ...current.payload, ...changes.payload, metadata },
      metadata,
      next_run_date: rescheduled
        ? nextRunAfter(schedule, { after: deps.now?.() ?? new Date(), timezone, endTime })
        : current.next_run_date
          ? new Date(current.next_run_date)
          : null,
    };
  };
  return deps.crons.modify(cronId, change, visible);
}
