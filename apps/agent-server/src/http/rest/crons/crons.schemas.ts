import { z } from 'zod';
import { CRON_SELECT_FIELDS, CRON_SORT_FIELDS, ON_RUN_COMPLETED, isTimeZone, scheduleProblem } from '@platform/agent-server-crons';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { isUuid } from '@platform/ids';
import { threadId } from '../threads/threads.schemas';

// A field sent as null counts as not sent: the SDKs send nulls for what they leave out.
const opt = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);
const record = z.record(z.string(), z.unknown());

const schedule = z.string().superRefine((value, ctx) => {
  const problem = scheduleProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const timezone = z.string().refine(isTimeZone, { message: 'Unknown time zone (use an IANA name such as Europe/Paris)' });
// ISO 8601; a time without an offset is UTC.
const endTime = z.iso.datetime({ offset: true, local: true }).transform((v) => new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(v) ? v : `${v}Z`));

export const cronParams = z.object({
  cron_id: z.string().transform((v, ctx) => {
    if (isUuid(v)) return v.toLowerCase();
    ctx.addIssue({ code: 'invalid_format', format: 'uuid', message: 'Input should be a valid UUID', input: v });
    return z.NEVER;
  }),
});
export const threadCronParams = z.object({ thread_id: threadId });

/** `POST /runs/crons` and `POST /threads/{id}/runs/crons`: the cron's own fields and a run request (its payload). */
export const cronCreateBody = z.intersection(
  z.object({
    schedule,
    timezone: opt(timezone),
    end_time: opt(endTime),
    enabled: opt(z.boolean()),
    on_run_completed: opt(z.enum(ON_RUN_COMPLETED)),
  }),
  runCreateSchema,
);
export type CronCreateBody = z.infer<typeof cronCreateBody>;

/** The cron's own fields of a create body; the rest is the run request each firing makes. */
export const CRON_OWN_FIELDS = ['schedule', 'timezone', 'end_time', 'enabled', 'on_run_completed', 'assistant_id', 'metadata'] as const;

const run = runCreateSchema.shape;

/** `PATCH /runs/crons/{id}`: the cron's fields, and the run-request fields the SDK's `crons.update` sends. */
export const cronPatchBody = z.object({
  schedule: opt(schedule),
  // null: back to UTC.
  timezone: timezone.nullable().optional(),
  // null: no end.
  end_time: endTime.nullable().optional(),
  enabled: opt(z.boolean()),
  on_run_completed: opt(z.enum(ON_RUN_COMPLETED)),
  metadata: opt(record),
  input: run.input,
  config: run.config,
  context: run.context,
  webhook: run.webhook,
  interrupt_before: run.interrupt_before,
  interrupt_after: run.interrupt_after,
  multitask_strategy: run.multitask_strategy,
  stream_mode: run.stream_mode,
  stream_subgraphs: run.stream_subgraphs,
  stream_resumable: run.stream_resumable,
  durability: run.durability,
  checkpoint_during: run.checkpoint_during,
});

/** The fields of a PATCH body that belong to the cron itself; the others change its run payload. */
export const CRON_PATCH_OWN_FIELDS = ['schedule', 'timezone', 'end_time', 'enabled', 'on_run_completed', 'metadata'] as const;

const filters = {
  assistant_id: opt(z.string().min(1)),
  thread_id: opt(threadId),
  enabled: opt(z.boolean()),
  metadata: opt(record),
};

export const cronSearchBody = z.object({
  ...filters,
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
  sort_by: opt(z.enum(CRON_SORT_FIELDS)),
  sort_order: opt(z.enum(['asc', 'desc'])),
  select: opt(z.array(z.enum(CRON_SELECT_FIELDS))),
});

export const cronCountBody = z.object(filters);

// What the routes answer (documentation; `SameShape` in crons.routes.ts keeps it the shape of a `Cron`).
export const cronResponse = z.object({
  cron_id: z.string(),
  assistant_id: z.string(),
  thread_id: z.string().nullable().describe('The thread every firing runs on; null for a stateless cron'),
  on_run_completed: z.enum(ON_RUN_COMPLETED).nullable(),
  end_time: z.string().nullable(),
  schedule: z.string(),
  timezone: z.string().nullable().describe('IANA time zone the schedule is read in; null: UTC'),
  created_at: z.string(),
  updated_at: z.string(),
  payload: record.describe('The run request each firing creates'),
  user_id: z.string().nullable(),
  next_run_date: z.string().nullable(),
  metadata: record,
  enabled: z.boolean(),
});
