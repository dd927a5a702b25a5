import { Router } from 'express';
import { parseRequest, tenantOf } from '@platform/http-server';
import {
  queryRuns,
  runFilterValidationSchema,
  runQueryRequestSchema,
  toRunQuery,
  validateRunQueryFilters,
  type RunQueryReader,
} from '@platform/tracing-runs';

/**
 * Run reads as the `langsmith` SDK calls them (mount at `/api/v1`):
 * `POST /runs/query` → `{runs, cursors: {next, prev}}`, keyset pages newest first;
 * `POST /runs/query/validate` `{filter, trace_filter?, tree_filter?}` → `{valid: true}`.
 * A bad filter is a 400 whose detail names the field and the position.
 */
export function runsQueryRoutes(runs: RunQueryReader): Router {
  const router = Router();
  router.post('/runs/query', async (req, res) => {
    const body = parseRequest(runQueryRequestSchema, req.body ?? {});
    res.json(await queryRuns(runs, toRunQuery(tenantOf(res), body)));
  });
  router.post('/runs/query/validate', (req, res) => {
    tenantOf(res);
    validateRunQueryFilters(parseRequest(runFilterValidationSchema, req.body ?? {}));
    res.json({ valid: true });
  });
  return router;
}
