import { InputError } from '@platform/errors';
import type { Cron, OnRunCompleted } from './cron';
import { isTimeZone, nextRunAfter, scheduleProblem } from './cron-schedule';
import type { CronsDeps } from './crons.deps';

export interface CreateCronInput {
  /** The thread every firing runs on; null: stateless (a new thread per firing). */
  thread_id: string | null;
  /** An assistant id or a graph id (its system assistant). */
  assistant_id: string;
  schedule: string;
  timezone?: string | null;
  end_time?: Date | null;
  enabled?: boolean;
  /** Stateless crons only (default delete). */
  on_run_completed?: OnRunCompleted | null;
  /** The cron's metadata, also given to the runs it creates. */
  metadata?: Record<string, unknown>;
  /** The rest of the run request each firing creates (input, config, context, webhook, stream_mode, ...). */
  run: Record<string, unknown>;
  user_id?: string | null;
}

/** Checks a schedule and time zone, as the routes do before (422 there; an InputError here). */
export function checkSchedule(schedule: string, timezone: string | null | undefined): void {
  const problem = scheduleProblem(schedule);
  if (problem) throw new InputError(problem);
  if (timezone && !isTimeZone(timezone)) throw new InputError(`Unknown time zone '${timezone}'`);
}

/**
 * `POST /runs/crons` and `POST /threads/{id}/runs/crons`: a cron whose first run is the schedule's next firing after
 * now. Unknown assistant or thread → NotFoundError.
 */
export async function createCron(deps: CronsDeps, input: CreateCronInput): Promise<Cron> {
  checkSchedule(input.schedule, input.timezone);
  const { assistant_id } = await deps.assistants.resolve(input.assistant_id);
  const metadata = input.metadata ?? {};
  const payload = { ...input.run, assistant_id, metadata };
  const next = nextRunAfter(input.schedule, { after: deps.now?.() ?? new Date(), timezone: input.timezone, endTime: input.end_time });
  return deps.crons.insert(
    {
      assistant_id,
      thread_id: input.thread_id,
      schedule: input.schedule.trim(),
      timezone: input.timezone ?? null,
      end_time: input.end_time ?? null,
      enabled: input.enabled ?? true,
      on_run_completed: input.thread_id === null ? (input.on_run_completed ?? 'delete') : null,
      payload,
      metadata,
      user_id: input.user_id ?? null,
    },
    next,
  );
}
