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
  ).describe('Include subgraphs (true) or down to this depth'),
});

export const subgraphsQuery = z.object({ recurse: opt(flag).describe('Include nested subgraphs') });

export const deleteQuery = z.object({ delete_threads: opt(flag).describe('Also delete the threads whose metadata.assistant_id is this assistant') });

// Wherever an assistant id is taken, a graph id names its system assistant.
export const assistantParams = z.object({ assistant_id: z.string().describe('Assistant id, or a graph id for its system assistant') });
export const subgraphNamespaceParams = assistantParams.extend({ namespace: z.string().describe('Subgraph namespace, e.g. `parent|child`') });

// What the routes answer (documentation; `SameShape` in assistants.routes.ts keeps an assistant the shape of `Assistant`).
export const assistantResponse = z.object({
  assistant_id: z.string(),
  graph_id: z.string().describe('The graph (from langgraph.json) the assistant runs'),
  config: record.describe("LangGraph's RunnableConfig"),
  context: record.describe('Static context passed to the graph'),
  metadata: record,
  version: z.number().int().describe('Current version'),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const versionResponse = assistantResponse.omit({ updated_at: true });

const jsonSchema = record.describe('JSON Schema');

export const graphSchemasResponse = z.object({
  graph_id: z.string(),
  input_schema: jsonSchema.nullable(),
  output_schema: jsonSchema.nullable(),
  state_schema: jsonSchema.nullable(),
  config_schema: jsonSchema.nullable(),
  context_schema: jsonSchema.nullable(),
});

// As the reference answers subgraphs (the SDK's type names the keys as GraphSchemas does).
export const subgraphsResponse = z.record(z.string(), z.object({ state: jsonSchema, input: jsonSchema, output: jsonSchema, config: jsonSchema }).partial());

export const graphDrawingResponse = z.object({
  nodes: z.array(z.object({ id: z.union([z.string(), z.number().int()]), type: z.string(), data: z.unknown(), metadata: record.optional() })),
  edges: z.array(z.object({ source: z.string(), target: z.string(), data: z.string().optional(), conditional: z.boolean().optional() })),
});
