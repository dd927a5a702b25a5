import { z } from 'zod';
import { isUuid } from '@platform/ids';
import { ASSISTANT_FIELDS, ASSISTANT_SORT_FIELDS } from '@platform/agent-server-assistants';

// A field sent as null counts as not sent: the SDKs send nulls (and undefineds) for what they leave out.
const opt = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);

const record = z.record(z.string(), z.unknown());
const flag = z.union([z.boolean(), z.string().transform((v) => ['true', '1', 'yes'].includes(v.toLowerCase()))]);

const assistantId = z.string().transform((v, ctx) => {
  if (isUuid(v)) return v.toLowerCase();
  ctx.addIssue({ code: 'invalid_format', format: 'uuid', message: 'Input should be a valid UUID', input: v });
  return z.NEVER;
});

/** An assistant's config: LangGraph's RunnableConfig in snake_case; other keys are kept as given. */
const config = z
  .object({
    tags: opt(z.array(z.string())),
    recursion_limit: opt(z.number().int().min(1)),
    configurable: opt(record),
  })
  .catchall(z.unknown());

const filters = {
  metadata: opt(record),
  graph_id: opt(z.string()),
  name: opt(z.string()),
};

export const createBody = z.object({
  assistant_id: opt(assistantId),
  graph_id: z.string().min(1),
  config: opt(config),
  context: opt(record),
  metadata: opt(record),
  if_exists: opt(z.enum(['raise', 'do_nothing'])),
  name: opt(z.string()),
  description: opt(z.string()),
});

export const patchBody = z.object({
  graph_id: opt(z.string().min(1)),
  config: opt(config),
  context: opt(record),
  metadata: opt(record),
  name: opt(z.string()),
  description: opt(z.string()),
});

export const searchBody = z.object({
  ...filters,
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
  sort_by: opt(z.enum(ASSISTANT_SORT_FIELDS)),
  sort_order: opt(z.enum(['asc', 'desc'])),
  select: opt(z.array(z.enum(ASSISTANT_FIELDS))),
});

export const countBody = z.object(filters);

export const versionsBody = z.object({
  metadata: opt(record),
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
});

export const latestBody = z.object({ version: z.number().int().min(1) });

/** `xray`: true/false, or a depth (the SDK sends either as text). */
export const graphQuery = z.object({
  xray: opt(
    z.union([
      z.boolean(),
      z.number().int().min(0),
      z.string().transform((v, ctx) => {
        if (/^\d+$/.test(v)) return Number(v);
        if (/^(true|false|yes|no)$/i.test(v)) return /^(true|yes)$/i.test(v);
        ctx.addIssue({ code: 'custom', message: 'Input should be a boolean or an integer', input: v });
        return z.NEVER;
      }),
    ]),
  ),
});

export const subgraphsQuery = z.object({ recurse: opt(flag) });

export const deleteQuery = z.object({ delete_threads: opt(flag) });
