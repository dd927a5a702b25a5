import type { Request, Response } from 'express';
import { z } from 'zod';
import { publicBaseUrlOf, tenantOf } from '@platform/http-server';
import { isUuid } from '@platform/ids';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  listTraceRunsV2,
  queryRunsV2,
  queryTracesV2,
  retrieveRunV2,
  runRetrieveV2Schema,
  runsQueryV2Schema,
  traceRunsV2Schema,
  tracesQueryV2Schema,
  type ReadRunsV2Deps,
  type V2Caller,
  type V2Page,
} from '@platform/tracing-runs';
import { runV2Response, traceV2Response, v2PageResponse } from './responses.schema';

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

const tags = ['Runs (v2)'];

// A run or trace id in the path, checked before the query as `runIdFromPath` checks it (`uuid_parsing`), lower-cased.
const idParam = (what: string) =>
  z
    .string()
    .transform((v, ctx) => {
      if (isUuid(v)) return v.toLowerCase();
      ctx.addIssue({ code: 'invalid_format', format: 'uuid', input: v, message: 'Input should be a valid UUID' });
      return z.NEVER;
    })
    .describe(`A ${what} id (UUID)`);
const streamed = 'As JSON; with `Accept: text/event-stream`, one JSON Patch event setting the whole page, then `end`';

/**
 * The run reads of the `langsmith` SDK 0.12 resource API: `POST /runs/query`, `GET /runs/{run_id}`,
 * `POST /traces/query` and `GET /traces/{trace_id}/runs`. Runs carry only the `selects` fields (and their id); pages
 * are newest first and continue with `cursor` until `next_cursor` is null.
 */
export function runsV2Routes(deps: ReadRunsV2Deps): DeclaredRoute[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/v2/runs/query',
        summary: 'Query runs of projects or of a dataset',
        tags,
        body: runsQueryV2Schema,
        responses: { 200: { description: `A page of runs. ${streamed}`, schema: v2PageResponse(runV2Response) } },
      },
      async ({ body }, req, res) => {
        const caller = callerOf(req, res);
        sendPage(req, res, await queryRunsV2(deps, caller, body));
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v2/runs/:run_id',
        summary: 'Get a run with the selected fields',
        tags,
        params: z.object({ run_id: idParam('run') }),
        query: runRetrieveV2Schema,
        responses: { 200: { description: 'The run', schema: runV2Response }, 404: { description: 'No such run' } },
      },
      async ({ params, query }, req, res) => {
        const caller = callerOf(req, res);
        res.json(await retrieveRunV2(deps, caller, params.run_id, query));
      },
    ),
    route(
      {
        method: 'post',
        path: '/api/v2/traces/query',
        summary: 'Query traces (their root runs)',
        tags,
        body: tracesQueryV2Schema,
        responses: { 200: { description: `A page of traces. ${streamed}`, schema: v2PageResponse(traceV2Response) } },
      },
      async ({ body }, req, res) => {
        const caller = callerOf(req, res);
        sendPage(req, res, await queryTracesV2(deps, caller, body));
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v2/traces/:trace_id/runs',
        summary: 'The runs of a trace',
        tags,
        params: z.object({ trace_id: idParam('trace') }),
        query: traceRunsV2Schema,
        responses: { 200: { description: 'The runs', schema: z.object({ items: z.array(runV2Response) }) } },
      },
      async ({ params, query }, req, res) => {
        const caller = callerOf(req, res);
        res.json(await listTraceRunsV2(deps, caller, params.trace_id, query));
      },
    ),
  ];
}
