import { Router } from 'express';
import { parseRequest, publicBaseUrlOf, tenantOf } from '@platform/http-server';
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

/**
 * Run reads as the `langsmith` SDK calls them (mount at `/api/v1`):
 * `POST /runs/query` → `{runs, cursors: {next, prev}}`, keyset pages newest first, each run with the links to its
 * attachments (`s3_urls`);
 * `POST /runs/query/validate` `{filter, trace_filter?, tree_filter?}` → `{valid: true}`.
 * A bad filter is a 400 whose detail names the field and the position.
 */
export function runsQueryRoutes(runs: RunQueryReader, attachments: AttachmentUrlDeps): Router {
  const router = Router();
  router.post('/runs/query', async (req, res) => {
    const tenantId = tenantOf(res);
    const page = await queryRuns(runs, toRunQuery(tenantId, parseRequest(runQueryRequestSchema, req.body ?? {})));
    res.json({ ...page, runs: await withS3Urls(attachments, tenantId, page.runs, publicBaseUrlOf(req)) });
  });
  router.post('/runs/query/validate', (req, res) => {
    tenantOf(res);
    validateRunQueryFilters(parseRequest(runFilterValidationSchema, req.body ?? {}));
    res.json({ valid: true });
  });
  return router;
}
