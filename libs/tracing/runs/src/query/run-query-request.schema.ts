import { z } from 'zod';
import { isoToMicros } from '@platform/contracts';
import { decodeRunQueryCursor } from './run-query-cursor';
import { MAX_RUN_QUERY_LIMIT, type RunQuery } from './run-query.types';

// Any 8-4-4-4-12 hex id, as Postgres accepts (z.uuid() would refuse ids without RFC version bits).
export const uuid = z.guid();
// The SDK sends a list; a single id is accepted too.
const uuids = z.union([uuid, z.array(uuid)]).transform((v) => (Array.isArray(v) ? v : [v]));
export const queryTime = z.string().refine((v) => {
  try {
    isoToMicros(v);
    return true;
  } catch {
    return false;
  }
}, 'Input should be a valid datetime');

/**
 * The body of `POST /runs/query` as the `langsmith` SDK sends it (`Client.listRuns`): fields it leaves unset
 * arrive as null. `select` is accepted and ignored (runs come back whole); `limit` above 100 is capped to 100
 * rather than refused, since the SDK passes the caller's total limit through and pages with the cursor.
 */
export const runQueryRequestSchema = z.object({
  session: uuids.nullish(),
  id: uuids.nullish(),
  trace: uuid.nullish(),
  parent_run: uuid.nullish(),
  reference_example: uuids.nullish(),
  run_type: z.string().min(1).nullish(),
  is_root: z.boolean().nullish(),
  execution_order: z.number().int().min(1).nullish(),
  error: z.boolean().nullish(),
  start_time: queryTime.nullish(),
  end_time: queryTime.nullish(),
  query: z.string().nullish(),
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
  select: z.array(z.string()).nullish(),
  order: z.enum(['asc', 'desc']).nullish(),
  limit: z.number().int().min(1).nullish(),
  cursor: z.string().nullish(),
});

export type RunQueryRequest = z.infer<typeof runQueryRequestSchema>;

/** The body of `POST /runs/query/validate`: the filters to check. */
export const runFilterValidationSchema = z.object({
  filter: z.string().nullish(),
  trace_filter: z.string().nullish(),
  tree_filter: z.string().nullish(),
});

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Turns a validated request body into the tenant's {@link RunQuery}; a cursor that is not ours is a 400. */
export function toRunQuery(tenantId: string, body: RunQueryRequest): RunQuery {
  return {
    tenantId,
    sessionIds: orUndefined(body.session),
    ids: orUndefined(body.id),
    traceId: orUndefined(body.trace),
    parentRunId: orUndefined(body.parent_run),
    referenceExampleIds: orUndefined(body.reference_example),
    runType: orUndefined(body.run_type),
    // execution_order 1 is how older clients asked for root runs.
    isRoot: body.is_root ?? (body.execution_order === 1 ? true : undefined),
    error: orUndefined(body.error),
    startUs: body.start_time ? isoToMicros(body.start_time) : undefined,
    endUs: body.end_time ? isoToMicros(body.end_time) : undefined,
    search: body.query?.trim() || undefined,
    filter: orUndefined(body.filter),
    traceFilter: orUndefined(body.trace_filter),
    treeFilter: orUndefined(body.tree_filter),
    order: body.order ?? 'desc',
    limit: Math.min(body.limit ?? MAX_RUN_QUERY_LIMIT, MAX_RUN_QUERY_LIMIT),
    after: body.cursor ? decodeRunQueryCursor(body.cursor) : undefined,
  };
}
