import { z } from 'zod';
import type { tracingProjectJson } from '@platform/tracing-projects';
import type { RunJson, RunQueryPage } from '@platform/tracing-runs';
import type { SameShape } from '@platform/openapi';

// The response shapes of the tracing API, for the OpenAPI document: what runJson & co. send (checked below at compile time).

const timestamp = z.string().describe('ISO 8601, UTC, with microseconds');

export const accepted = z.object({}).describe('Accepted: ingestion is asynchronous');

export const projectResponse = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  extra: z.record(z.string(), z.unknown()).nullable(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  reference_dataset_id: z.null(),
  default_dataset_id: z.null(),
  trace_tier: z.null(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const runResponse = z.object({
  id: z.string(),
  name: z.string().nullable(),
  run_type: z.string().nullable(),
  start_time: timestamp.nullable(),
  end_time: timestamp.nullable(),
  status: z.string(),
  error: z.string().nullable(),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.unknown(),
  extra: z.record(z.string(), z.unknown()),
  events: z.array(z.unknown()),
  serialized: z.unknown(),
  tags: z.array(z.string()),
  session_id: z.string().nullable(),
  trace_id: z.string().nullable(),
  dotted_order: z.string().nullable(),
  parent_run_id: z.string().nullable(),
  parent_run_ids: z.array(z.string()),
  is_root: z.boolean(),
  reference_example_id: z.string().nullable(),
  feedback_stats: z.unknown(),
  first_token_time: timestamp.nullable(),
  trace_tier: z.string().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  prompt_cost: z.string().nullable().describe('decimal'),
  completion_cost: z.string().nullable().describe('decimal'),
  total_cost: z.string().nullable().describe('decimal'),
});

const s3Urls = z
  .record(z.string(), z.object({ presigned_url: z.string(), mime_type: z.string() }))
  .describe('`attachment.<name>` → a signed download link');

export const runWithAttachmentsResponse = runResponse.extend({ s3_urls: s3Urls });

export const runQueryPageResponse = z.object({
  runs: z.array(runWithAttachmentsResponse),
  cursors: z.object({ next: z.string().nullable(), prev: z.null() }),
});

/** v2 runs carry the fields the request selected (`selects`), and their id. */
const runV2 = z.record(z.string(), z.unknown());

export const v2PageResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });
export const runV2Response = runV2;
export const traceV2Response = z.object({
  root_run: runV2,
  trace_aggregates: z.record(z.string(), z.unknown()).optional(),
  query_metadata: z.null(),
});

export const infoResponse = z.object({
  version: z.string(),
  license_expiration_time: z.null(),
  tenant_handle: z.null(),
  batch_ingest_config: z.object({
    use_multipart_endpoint: z.boolean(),
    size_limit: z.number().int(),
    size_limit_bytes: z.number().int(),
    scale_up_qsize_trigger: z.number().int(),
    scale_up_nthreads_limit: z.number().int(),
    scale_down_nempty_trigger: z.number().int(),
  }),
  instance_flags: z.record(z.string(), z.unknown()),
});

const _project: SameShape<z.output<typeof projectResponse>, ReturnType<typeof tracingProjectJson>> = true;
// inputs, extra and events are `{}` in RunJson's type (`unknown ?? {}`); the schema says what they hold.
type Json = 'inputs' | 'extra' | 'events';
const _run: SameShape<Omit<z.output<typeof runResponse>, Json>, Omit<RunJson, Json>> = true;
const _page: SameShape<z.output<typeof runQueryPageResponse>['cursors'], RunQueryPage['cursors']> = true;
