import { callerConfigurable, type AuthCaller } from '@platform/agent-server-auth';
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
  /** The caller the deployment's auth authenticated: every firing runs as this user (`langgraph_auth_user`). */
  runAs?: AuthCaller;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

// The run request of every firing; with a caller, its config names that caller as a run created by them would.
function firingPayload(input: CreateCronInput, assistantId: string, metadata: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...input.run, assistant_id: assistantId, metadata };
  if (!input.runAs) return payload;
  const config = asRecord(payload['config']);
  return { ...payload, config: { ...config, configurable: { ...asRecord(config['configurable']), ...callerConfigurable(input.runAs) } } };
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
  const payload = firingPayload(input, assistant_id, metadata);
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
      user_id: input.user_id ?? input.runAs?.user.identity ?? null,
    },
    next,
  );
}
