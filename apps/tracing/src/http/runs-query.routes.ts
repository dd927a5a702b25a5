import { z } from 'zod';
import { publicBaseUrlOf, tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  queryRuns,
  withS3Urls,
  type AttachmentUrlDeps,
  runFilterValidationSchema,
  runQueryRequestSchema,
  toRunQuery,
  validateRunQueryFilters,
  type RunQueryReader,
} from '@platform/tracing-runs';
import { runQueryPageResponse } from './responses.schema';

const tags = ['Runs'];

/**
 * Run reads as the `langsmith` SDK calls them:
 * `POST /runs/query` → `{runs, cursors: {next, prev}}`, keyset pages newest first, each run with the links to its
 * attachments (`s3_urls`);
 * `POST /runs/query/validate` `{filter, trace_filter?, tree_filter?}` → `{valid: true}`.
 * A bad filter is a 400 whose detail names the field and the position.
 */
export function runsQueryRoutes(runs: RunQueryReader, attachments: AttachmentUrlDeps): DeclaredRoute[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/v1/runs/query',
        summary: 'Query runs (newest first; follow cursors.next)',
        tags,
        body: runQueryRequestSchema,
        responses: { 200: { description: 'A page of runs', schema: runQueryPageResponse }, 400: { description: 'A bad filter (field and position named)' } },
      },
      async ({ body }, req, res) => {
        const tenantId = tenantOf(res);
        const page = await queryRuns(runs, toRunQuery(tenantId, body));
        res.json({ ...page, runs: await withS3Urls(attachments, tenantId, page.runs, publicBaseUrlOf(req)) });
      },
    ),
    route(
      {
        method: 'post',
        path: '/api/v1/runs/query/validate',
        summary: 'Check run query filters',
        tags,
        body: runFilterValidationSchema,
        responses: { 200: { description: 'The filters are valid', schema: z.object({ valid: z.literal(true) }) }, 400: { description: 'A bad filter (field and position named)' } },
      },
      ({ body }, _req, res) => {
        tenantOf(res);
        validateRunQueryFilters(body);
        res.json({ valid: true });
      },
    ),
  ];
}
