import { z } from 'zod';
import { isUuid } from '@platform/ids';
import { parseRunTime } from './run-time';

export const RUN_TYPES = ['tool', 'chain', 'llm', 'retriever', 'embedding', 'prompt', 'parser'] as const;
export const TRACE_TIERS = ['longlived', 'shortlived'] as const;

// A field sent as null counts as not sent: the SDKs send nulls for what they don't know, and a null must neither
// clear what an earlier create or update stored nor fail validation.
const opt = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);

/** A UUID in any case, returned lower case (the form Postgres prints, so ids compare as text). */
export const uuid = z.string().transform((v, ctx) => {
  if (isUuid(v)) return v.toLowerCase();
  ctx.addIssue({ code: 'invalid_format', format: 'uuid', message: 'Input should be a valid UUID', input: v });
  return z.NEVER;
});

/** A run time (ISO 8601, zone optional, or epoch milliseconds), returned as ISO text with microseconds in UTC. */
export const runTime = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const iso = parseRunTime(v);
  if (iso !== undefined) return iso;
  ctx.addIssue({
    code: 'invalid_format',
    format: 'datetime',
    message: 'Input should be an ISO 8601 datetime or epoch milliseconds',
    input: String(v),
  });
  return z.NEVER;
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// A JSON object, checked without walking its keys (inputs and outputs are large and their keys are free-form).
const jsonObject = z.unknown().transform((v, ctx) => {
  if (isObject(v)) return v;
  ctx.addIssue({ code: 'invalid_type', expected: 'object', input: v, message: 'Input should be a valid dictionary' });
  return z.NEVER;
});

// A JSON array, checked without walking its items.
const jsonArray = z.unknown().transform((v, ctx) => {
  if (Array.isArray(v)) return v as unknown[];
  ctx.addIssue({ code: 'invalid_type', expected: 'array', input: v, message: 'Input should be a valid list' });
  return z.NEVER;
});
const amount = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'Input should be a number')]);

/**
 * A run create or update as the `langsmith` SDK sends it (`POST /runs`, `/runs/batch` items, `post.<id>` /
 * `patch.<id>` multipart parts). Unknown fields are dropped.
 */
export const runPayloadSchema = z.object({
  id: opt(uuid),
  name: opt(z.string()),
  run_type: opt(z.enum(RUN_TYPES)),
  start_time: opt(runTime),
  end_time: opt(runTime),
  inputs: opt(jsonObject),
  outputs: opt(jsonObject),
  error: opt(z.string()),
  extra: opt(jsonObject),
  events: opt(jsonArray),
  serialized: opt(jsonObject),
  tags: opt(z.array(z.string())),
  parent_run_id: opt(uuid),
  trace_id: opt(uuid),
  dotted_order: opt(z.string().min(1)),
  session_id: opt(uuid),
  session_name: opt(z.string().trim().min(1).max(400)),
  reference_example_id: opt(uuid),
  trace_tier: opt(z.enum(TRACE_TIERS)),
  prompt_cost: opt(amount),
  completion_cost: opt(amount),
  total_cost: opt(amount),
  /** Nested children (legacy `POST /runs` trees); they are ingested as creates of their own. */
  child_runs: opt(jsonArray),
});

export type RunPayload = z.infer<typeof runPayloadSchema>;

/** Feedback on a run (`feedback.<id>` parts). */
export const feedbackPayloadSchema = z.object({
  id: opt(uuid),
  run_id: uuid,
  trace_id: opt(uuid),
  key: z.string().trim().min(1).max(400),
  score: opt(z.union([z.number(), z.boolean()])),
  value: z.unknown().optional(),
  comment: opt(z.string()),
  correction: z.unknown().optional(),
  feedback_source: z.unknown().optional(),
  feedback_config: z.unknown().optional(),
  feedback_group_id: z.unknown().optional(),
  comparative_experiment_id: z.unknown().optional(),
});

export type FeedbackPayload = z.infer<typeof feedbackPayloadSchema>;
