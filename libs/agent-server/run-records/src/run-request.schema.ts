import { z } from 'zod';
import { isUuid } from '@platform/ids';
import { MULTITASK_STRATEGIES, RUN_STATUSES, STREAM_MODES } from './run';

const record = z.record(z.string(), z.unknown());
// Any UUID spelling, as FastAPI's UUID type takes it (zod's z.uuid() wants RFC versions).
const uuid = z.string().refine(isUuid, 'Input should be a valid UUID');
const interruptNodes = z.union([z.literal('*'), z.array(z.string())]);
const streamMode = z.enum(STREAM_MODES);
const gotoTarget = z.union([z.string(), z.object({ node: z.string(), input: z.unknown().optional() })]);

export const commandSchema = z.object({
  goto: z.union([gotoTarget, z.array(gotoTarget)]).nullish(),
  update: z.union([record, z.array(z.tuple([z.string(), z.unknown()]))]).nullish(),
  resume: z.unknown().optional(),
});

// An http(s) URL, or a path of the deployment itself (`/custom/webhook`: its own routes answer it, as on the reference).
const webhookUrl = z
  .string()
  .refine(
    (value) => (/^https?:\/\//i.test(value) && URL.canParse(value)) || (/^\/(?!\/)/.test(value) && URL.canParse(value, 'http://localhost')),
    'must be an http(s) URL or a path of this deployment',
  );

/**
 * The body of every run-creating request (`/runs`, `/runs/stream`, `/runs/wait`, `/threads/{id}/runs*`, each item
 * of `/runs/batch`). Unknown keys are ignored; the SDK sends null or nothing for what it leaves out.
 */
export const runCreateSchema = z
  .object({
    assistant_id: z.string().min(1),
    input: z.unknown().optional(),
    command: commandSchema.nullish(),
    checkpoint_id: z.string().min(1).nullish(),
    checkpoint: z
      .object({
        checkpoint_id: z.string().nullish(),
        checkpoint_ns: z.string().nullish(),
        checkpoint_map: record.nullish(),
      })
      .nullish(),
    metadata: record.nullish(),
    context: record.nullish(),
    config: z
      .looseObject({
        tags: z.array(z.string()).nullish(),
        recursion_limit: z.number().int().min(1).nullish(),
        configurable: record.nullish(),
        metadata: record.nullish(),
      })
      .nullish(),
    webhook: webhookUrl.nullish(),
    interrupt_before: interruptNodes.nullish(),
    interrupt_after: interruptNodes.nullish(),
    on_disconnect: z.enum(['cancel', 'continue']).nullish(),
    multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
    stream_mode: z.union([streamMode, z.array(streamMode)]).nullish(),
    stream_subgraphs: z.boolean().nullish(),
    stream_resumable: z.boolean().nullish(),
    after_seconds: z.number().min(0).nullish(),
    if_not_exists: z.enum(['reject', 'create']).nullish(),
    on_completion: z.enum(['delete', 'keep']).nullish(),
    feedback_keys: z.union([z.string(), z.array(z.string())]).nullish(),
    durability: z.enum(['sync', 'async', 'exit']).nullish(),
    checkpoint_during: z.boolean().nullish(),
    langsmith_tracer: z.object({ project_name: z.string().nullish(), example_id: z.string().nullish() }).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.command != null && body.input != null) {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'Cannot specify both input and command' });
    }
  });

export type RunCreateRequest = z.infer<typeof runCreateSchema>;

export const runBatchSchema = z.array(runCreateSchema).min(1);

const flag = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false', 'True', 'False'])])
  .transform((value) => value === true || value === '1' || value === 'true' || value === 'True');

export const cancelQuerySchema = z.object({
  wait: flag.default(false),
  action: z.enum(['interrupt', 'rollback']).default('interrupt'),
});

export const cancelManyBodySchema = z
  .object({
    thread_id: uuid.nullish(),
    run_ids: z.array(uuid).nullish(),
    status: z.enum(['pending', 'running', 'all']).nullish(),
  })
  .superRefine((body, ctx) => {
    if (!body.status && !body.thread_id && !body.run_ids?.length) {
      ctx.addIssue({ code: 'custom', path: [], message: 'Give status, or thread_id and/or run_ids' });
    }
  });

export const cancelManyQuerySchema = z.object({ action: z.enum(['interrupt', 'rollback']).default('interrupt') });

export const listRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(RUN_STATUSES).optional(),
  select: z.union([z.string(), z.array(z.string())]).optional(),
});

export const joinStreamQuerySchema = z.object({
  cancel_on_disconnect: flag.default(false),
  stream_mode: z.union([streamMode, z.array(streamMode)]).optional(),
});

export const joinQuerySchema = z.object({ cancel_on_disconnect: flag.default(false) });
