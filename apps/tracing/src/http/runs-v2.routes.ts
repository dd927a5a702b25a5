import { Router, type Request, type Response } from 'express';
import { parseRequest, publicBaseUrlOf, tenantOf } from '@platform/http-server';
import {
  listTraceRunsV2,
  queryRunsV2,
  queryTracesV2,
  retrieveRunV2,
  runIdFromPath,
  runRetrieveV2Schema,
  runsQueryV2Schema,
  traceRunsV2Schema,
  tracesQueryV2Schema,
  type ReadRunsV2Deps,
  type V2Caller,
  type V2Page,
} from '@platform/tracing-runs';

const callerOf = (req: Request, res: Response): V2Caller => ({ tenantId: tenantOf(res), baseUrl: publicBaseUrlOf(req) });

/**
 * A page as JSON, or, when the client asks for `text/event-stream` (the SDK's `streaming.queryV2`), as the one
 * JSON Patch event that sets the whole page document, then `end`.
 */
function sendPage(req: Request, res: Response, page: V2Page<unknown>): void {
  if (!req.get('accept')?.includes('text/event-stream')) {
    res.json(page);
    return;
  }
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify([{ op: 'add', path: '', value: page }])}\n\n`);
  res.end('event: end\ndata: {}\n\n');
}

/**
 * The run reads of the `langsmith` SDK 0.12 resource API (mount at `/api/v2`): `POST /runs/query`,
 * `GET /runs/{run_id}`, `POST /traces/query` and `GET /traces/{trace_id}/runs`. Runs carry only the `selects`
 * fields (and their id); pages are newest first and continue with `cursor` until `next_cursor` is null.
 */
export function runsV2Routes(deps: ReadRunsV2Deps): Router {
  const router = Router();

  router.post('/runs/query', async (req, res) => {
    const caller = callerOf(req, res);
    sendPage(req, res, await queryRunsV2(deps, caller, parseRequest(runsQueryV2Schema, req.body ?? {})));
  });

  router.get('/runs/:runId', async (req, res) => {
    const caller = callerOf(req, res);
    const runId = runIdFromPath(req.params.runId);
    res.json(await retrieveRunV2(deps, caller, runId, parseRequest(runRetrieveV2Schema, req.query, 'query')));
  });

  router.post('/traces/query', async (req, res) => {
    const caller = callerOf(req, res);
    sendPage(req, res, await queryTracesV2(deps, caller, parseRequest(tracesQueryV2Schema, req.body ?? {})));
  });

  router.get('/traces/:traceId/runs', async (req, res) => {
    const caller = callerOf(req, res);
    const traceId = runIdFromPath(req.params.traceId, ['path', 'trace_id']);
    res.json(await listTraceRunsV2(deps, caller, traceId, parseRequest(traceRunsV2Schema, req.query, 'query')));
  });
  return router;
}
