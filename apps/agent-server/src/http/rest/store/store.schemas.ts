import { z } from 'zod';
import { filterIssues } from '@platform/agent-server-data-access/store';

// A field sent as null counts as not sent: the SDKs send nulls for what they leave out.
const opt = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? undefined);
const flag = z.union([z.boolean(), z.string().transform((v) => ['true', '1', 'yes'].includes(v.toLowerCase()))]);

/** A namespace label: non-empty, without "." (the SDK joins labels with "." in query strings). */
const label = z
  .string()
  .min(1, 'Namespace labels cannot be empty')
  .refine((v) => !v.includes('.'), { message: "Namespace labels cannot contain periods ('.')" });
const namespace = z.array(label);

const filter = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const issue of filterIssues(value)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
});

export const putItemBody = z.object({
  namespace: namespace.min(1, 'Namespace cannot be empty'),
  key: z.string(),
  value: z.record(z.string(), z.unknown()),
  // Fields to embed for semantic search instead of store.index.fields; false: none (ignored without store.index).
  index: z.union([z.literal(false), z.array(z.string()), z.null()]).optional(),
  // Minutes; null: never expires; absent: the deployment's default TTL.
  ttl: z.number().positive().nullable().optional(),
});

export const deleteItemBody = z.object({ namespace, key: z.string() });

// `namespace=a.b` (what the SDK sends) or repeated `namespace=a&namespace=b`; absent: the empty namespace.
const namespaceQuery = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : v.split('.')))
  .pipe(namespace);

export const getItemQuery = z.object({
  namespace: namespaceQuery.describe('Namespace labels joined with "."'),
  key: z.string().describe('Item key'),
  refresh_ttl: opt(flag).describe("Restart the item's TTL"),
});

export const searchItemsBody = z.object({
  namespace_prefix: opt(namespace),
  filter: opt(filter),
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
  query: opt(z.string()),
  refresh_ttl: opt(z.boolean()),
});

export const listNamespacesBody = z.object({
  // "*" matches any one label.
  prefix: opt(z.array(label)),
  suffix: opt(z.array(label)),
  max_depth: opt(z.number().int().min(1)),
  limit: opt(z.number().int().min(1).max(1000)),
  offset: opt(z.number().int().min(0)),
});

// What the routes answer (documentation; `SameShape` in store.routes.ts keeps it the shape of what they send).
export const itemResponse = z.object({
  namespace: z.array(z.string()),
  key: z.string(),
  value: z.record(z.string(), z.unknown()),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
});

export const searchItemsResponse = z.object({
  items: z.array(itemResponse.extend({ score: z.number().nullable().describe('Cosine similarity to the query; null when unranked') })),
});

export const namespacesResponse = z.object({ namespaces: z.array(z.array(z.string())) });
