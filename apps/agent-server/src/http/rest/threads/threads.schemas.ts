import { z } from 'zod';
import { isUuid } from '@platform/ids';
import { isThreadStateField, THREAD_SELECT_FIELDS, THREAD_SORT_FIELDS, THREAD_STATUSES } from '@platform/agent-server-threads';

// A field sent as null counts as not sent: the SDKs send nulls (and RemoteGraph undefineds) for what they leave out.
const opt = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);

const uuidIssue = (ctx: z.RefinementCtx, input: string) =>
  ctx.addIssue({ code: 'invalid_format', format: 'uuid', message: 'Input should be a valid UUID', input });

/** A thread id: a UUID in any case, returned lower case (the form Postgres prints and checkpoints key by). */
export const threadId = z.string().transform((v, ctx) => {
  if (isUuid(v)) return v.toLowerCase();
  uuidIssue(ctx, v);
  return z.NEVER;
});

/** A checkpoint id (LangGraph's uuid6, whose variant bits a strict UUID check refuses), kept as given. */
export const checkpointId = z.string().transform((v, ctx) => {
  if (isUuid(v)) return v;
  uuidIssue(ctx, v);
  return z.NEVER;
});

const record = z.record(z.string(), z.unknown());
const many = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
const flag = z.union([z.boolean(), z.string().transform((v) => ['true', '1', 'yes'].includes(v.toLowerCase()))]);

const stateFields = z.array(
  z.string().refine(isThreadStateField, { message: 'Input should be a state field (values, next, tasks, ...) or values.<key>' }),
);
// In a query string, `select=a&select=b` (one value comes as a string).
const stateSelect = many.pipe(stateFields);

/** A checkpoint in a request; `thread_id` (RemoteGraph sends it) is ignored in favour of the path's. */
export const checkpointBody = z.object({
  thread_id: opt(z.string()),
  checkpoint_id: opt(checkpointId),
  checkpoint_ns: opt(z.string()),
  checkpoint_map: opt(record),
});

const gotoTarget = z.union([z.string(), z.object({ node: z.string(), input: z.unknown().optional() })]);
const command = z.object({
  goto: opt(z.union([gotoTarget, z.array(gotoTarget)])),
  update: opt(z.union([record, z.array(z.tuple([z.string(), z.unknown()]))])),
  resume: z.unknown().optional(),
});

export const threadParams = z.object({ thread_id: threadId });
export const checkpointParams = z.object({ thread_id: threadId, checkpoint_id: checkpointId });

export const createBody = z.object({
  thread_id: opt(threadId),
  metadata: opt(record),
  if_exists: opt(z.enum(['raise', 'do_nothing'])),
  supersteps: opt(
    z.array(z.object({ updates: z.array(z.object({ values: z.unknown().optional(), command: opt(command), as_node: z.string() })) })),
  ),
  // Accepted for the SDK's sake; threads do not expire here.
  ttl: z.unknown().optional(),
});

const filters = {
  metadata: opt(record),
  values: opt(record),
  status: opt(z.enum(THREAD_STATUSES)),
};

export const searchBody = z.object({
  ...filters,
  ids: opt(z.array(threadId)),
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
  sort_by: opt(z.enum(THREAD_SORT_FIELDS)),
  sort_order: opt(z.enum(['asc', 'desc'])),
  select: opt(z.array(z.enum(THREAD_SELECT_FIELDS))),
  extract: opt(z.record(z.string(), z.string())),
});

export const countBody = z.object(filters);

export const patchBody = z.object({ metadata: opt(record), ttl: z.unknown().optional() });

export const pruneBody = z.object({
  thread_ids: z.array(threadId),
  strategy: opt(z.enum(['delete', 'keep_latest'])),
});

const selectState = opt(stateSelect).describe('State fields to return (values, next, tasks, ... or values.<key>)');

export const stateQuery = z.object({ subgraphs: opt(flag).describe('Include subgraph states'), select: selectState });

export const stateUpdateBody = z.object({
  values: z.union([record, z.array(record), z.null()]).optional(),
  as_node: opt(z.string()),
  checkpoint_id: opt(checkpointId),
  checkpoint: opt(checkpointBody),
});

export const statePatchBody = z.object({ metadata: record });

export const stateAtCheckpointBody = z.object({
  checkpoint: opt(checkpointBody),
  subgraphs: opt(flag),
  select: opt(stateFields),
});

export const historyQuery = z.object({
  limit: opt(z.coerce.number().int().min(1).max(1000)).describe('Default 10'),
  before: opt(checkpointId).describe('Checkpoint id'),
  select: selectState,
});

// `before` comes as a checkpoint id, a config (`{configurable: {checkpoint_id}}`, the SDK's type) or a checkpoint
// (what RemoteGraph sends).
const before = z.union([
  checkpointId,
  z.object({ configurable: opt(z.object({ checkpoint_id: opt(checkpointId) })), checkpoint_id: opt(checkpointId) }).transform(
    (v) => v.configurable?.checkpoint_id ?? v.checkpoint_id,
  ),
]);

export const historyBody = z.object({
  limit: opt(z.number().int().min(1).max(1000)),
  before: opt(before),
  metadata: opt(record),
  checkpoint: opt(checkpointBody),
  select: opt(stateFields),
});

// What the routes answer (documentation; `SameShape` in threads.routes.ts keeps a thread the shape of `Thread`).
const interrupt = z.looseObject({ id: z.string().optional(), value: z.unknown().optional() });

export const threadResponse = z.object({
  thread_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  state_updated_at: z.string().describe("When the thread's state last changed"),
  metadata: record,
  status: z.enum(THREAD_STATUSES),
  config: record,
  values: z.unknown().describe('Latest state values'),
  interrupts: z.record(z.string(), z.array(interrupt)).describe('Pending interrupts by task id'),
  extracted: record.optional().describe('Only with `extract` in a search'),
});

const checkpoint = z.object({ thread_id: z.string(), checkpoint_ns: z.string(), checkpoint_id: z.string().nullable(), checkpoint_map: record.nullable() });

export const threadStateResponse = z.object({
  values: z.unknown(),
  next: z.array(z.string()),
  tasks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      error: z.string().nullable(),
      interrupts: z.array(interrupt),
      path: z.array(z.unknown()).optional(),
      checkpoint: record.nullable(),
      state: z.unknown().describe("The subgraph's state, with `subgraphs`"),
      result: z.unknown(),
    }),
  ),
  metadata: record.optional(),
  created_at: z.string().nullable(),
  checkpoint: checkpoint.nullable(),
  parent_checkpoint: checkpoint.nullable(),
  interrupts: z.array(interrupt).optional(),
});
