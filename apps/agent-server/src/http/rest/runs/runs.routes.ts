import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { bothFilters } from '@platform/agent-server-auth';
import type { RunService } from '@platform/agent-server-runs';
import {
  cancelManyBodySchema,
  cancelManyQuerySchema,
  cancelQuerySchema,
  joinQuerySchema,
  joinStreamQuerySchema,
  listRunsQuerySchema,
  runBatchSchema,
  runCreateSchema,
  toRun,
  type RunCreateRequest,
  type RunRecord,
  type StreamMode,
} from '@platform/agent-server-run-records';
import { parseRequest } from '@platform/http-server';
import { isUuid } from '@platform/ids';
import type { ConfigurableHeaders } from '../../common/configurable-headers';
import { accessOf } from '../../common/deployment-auth.middleware';
import { eventInModes, jsonWhenDone, resumeFrom, runLocations, streamRun, threadResumeFrom } from '../../common/run-responses';
import { SseWriter } from '../../common/sse';

export interface RunsRoutesDeps {
  runs: RunService;
  /** A `: heartbeat` comment after this long without an event. */
  sseHeartbeatMs: number;
  /** A newline after this long while a wait or join has no answer yet. */
  waitKeepAliveMs: number;
  /** The request headers a new run gets in `config.configurable` (langgraph.json `http.configurable_headers`). */
  configurableHeaders?: ConfigurableHeaders;
}

const uuid = z.string().refine(isUuid, 'Input should be a valid UUID');
const threadPath = z.object({ thread_id: uuid });
const runPath = z.object({ thread_id: uuid, run_id: uuid });
const statelessRunPath = z.object({ run_id: uuid });

const modesOf = (value: StreamMode | StreamMode[] | undefined) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

/**
 * Thread runs and stateless runs: create (background, `/stream`, `/wait`, `/batch`), list, get, delete, join,
 * join the stream (`Last-Event-ID`), cancel one or many. Under the deployment's auth a run is its thread's: the
 * `threads:*` handlers decide, as LangGraph has them (create_run, read, delete, update).
 */
export function runsRoutes(deps: RunsRoutesDeps): Router {
  const { runs } = deps;
  const router = Router();

  // The request's headers go into the run's `configurable` over the body's, as LangGraph copies them.
  const withHeaders = (req: Request, request: RunCreateRequest): RunCreateRequest => {
    const headers = deps.configurableHeaders?.(req.headers);
    if (!headers || Object.keys(headers).length === 0) return request;
    const config = request.config ?? {};
    return { ...request, config: { ...config, configurable: { ...(config.configurable as Record<string, unknown> | undefined), ...headers } } };
  };
  const create = async (req: Request, res: Response, threadId: string | null) => {
    const request: RunCreateRequest = withHeaders(req, parseRequest(runCreateSchema, req.body ?? {}));
    return { request, run: await runs.create({ threadId }, request, accessOf(res)) };
  };
  // What the caller's filter for `threads:read` of the run's thread is.
  const readable = (res: Response, threadId: string | undefined) => accessOf(res).authorize('threads:read', { thread_id: threadId });

  const cancelOnClose = (res: Response, run: RunRecord, enabled: boolean) => {
    if (!enabled) return;
    res.on('close', () => {
      if (!res.writableFinished) runs.cancel(run.thread_id, run.run_id, { action: 'interrupt' }).catch(() => undefined);
    });
  };

  const background = (stateless: boolean) => async (req: Request, res: Response) => {
    const threadId = stateless ? null : parseRequest(threadPath, req.params, 'path').thread_id;
    const { run } = await create(req, res, threadId);
    res.set(runLocations(run.thread_id, run.run_id, stateless)).json(toRun(run));
  };

  const stream = (stateless: boolean) => async (req: Request, res: Response) => {
    const threadId = stateless ? null : parseRequest(threadPath, req.params, 'path').thread_id;
    const { request, run } = await create(req, res, threadId);
    await streamRun(res, {
      runs,
      runId: run.run_id,
      threadId: run.thread_id,
      from: -1,
      heartbeatMs: deps.sseHeartbeatMs,
      headers: runLocations(run.thread_id, run.run_id, stateless),
      cancelOnDisconnect: request.on_disconnect === 'cancel',
    });
  };

  const wait = (stateless: boolean) => async (req: Request, res: Response) => {
    const threadId = stateless ? null : parseRequest(threadPath, req.params, 'path').thread_id;
    const { request, run } = await create(req, res, threadId);
    res.set(runLocations(run.thread_id, run.run_id, stateless));
    cancelOnClose(res, run, request.on_disconnect === 'cancel');
    await jsonWhenDone(res, runs.output(run, { fresh: true }), deps.waitKeepAliveMs, { headersAtOnce: true });
  };

  router.post('/threads/:thread_id/runs', background(false));
  router.post('/threads/:thread_id/runs/stream', stream(false));
  router.post('/threads/:thread_id/runs/wait', wait(false));
  router.post('/runs', background(true));
  router.post('/runs/stream', stream(true));
  router.post('/runs/wait', wait(true));

  router.post('/runs/batch', async (req, res) => {
    const requests = parseRequest(runBatchSchema, req.body);
    const created: RunRecord[] = [];
    for (const request of requests) created.push(await runs.create({ threadId: null }, withHeaders(req, request), accessOf(res)));
    res.json(created.map(toRun));
  });

  router.post('/runs/cancel', async (req, res) => {
    const { action } = parseRequest(cancelManyQuerySchema, req.query, 'query');
    const body = parseRequest(cancelManyBodySchema, req.body ?? {});
    const filter = { threadId: body.thread_id ?? undefined, runIds: body.run_ids ?? undefined, status: body.status ?? undefined };
    const visible = await accessOf(res).authorize('threads:update', {
      thread_id: filter.threadId,
      action,
      metadata: { run_ids: filter.runIds, status: filter.status },
    });
    await runs.cancelMany({ ...filter, visible }, action);
    res.status(204).end();
  });

  router.get('/threads/:thread_id/runs', async (req, res) => {
    const { thread_id } = parseRequest(threadPath, req.params, 'path');
    const query = parseRequest(listRunsQuerySchema, req.query, 'query');
    // As in the reference, listing is a search among the thread's runs and a read of the thread.
    const searchable = await accessOf(res).authorize('threads:search', { thread_id, status: query.status });
    const visible = bothFilters(searchable, await readable(res, thread_id));
    const list = await runs.list(thread_id, { limit: query.limit, offset: query.offset, status: query.status }, visible);
    res.json(list.map(toRun));
  });

  router.get('/threads/:thread_id/runs/:run_id', async (req, res) => {
    const { thread_id, run_id } = parseRequest(runPath, req.params, 'path');
    res.json(toRun(await runs.get(thread_id, run_id, await readable(res, thread_id))));
  });

  router.delete('/threads/:thread_id/runs/:run_id', async (req, res) => {
    const { thread_id, run_id } = parseRequest(runPath, req.params, 'path');
    await runs.delete(thread_id, run_id, await accessOf(res).authorize('threads:delete', { thread_id, run_id }));
    res.status(204).end();
  });

  router.get('/threads/:thread_id/runs/:run_id/join', async (req, res) => {
    const { thread_id, run_id } = parseRequest(runPath, req.params, 'path');
    const { cancel_on_disconnect } = parseRequest(joinQuerySchema, req.query, 'query');
    const run = await runs.get(thread_id, run_id, await readable(res, thread_id));
    cancelOnClose(res, run, cancel_on_disconnect);
    await jsonWhenDone(res, runs.output(run), deps.waitKeepAliveMs);
  });

  const joinStream = (stateless: boolean) => async (req: Request, res: Response) => {
    const run = stateless
      ? await runs.getById(parseRequest(statelessRunPath, req.params, 'path').run_id, await readable(res, undefined))
      : await (async () => {
          const { thread_id, run_id } = parseRequest(runPath, req.params, 'path');
          return runs.get(thread_id, run_id, await readable(res, thread_id));
        })();
    const query = parseRequest(joinStreamQuerySchema, req.query, 'query');
    await streamRun(res, {
      runs,
      runId: run.run_id,
      threadId: run.thread_id,
      from: resumeFrom(req),
      heartbeatMs: deps.sseHeartbeatMs,
      headers: runLocations(run.thread_id, run.run_id, stateless),
      modes: modesOf(query.stream_mode),
      cancelOnDisconnect: query.cancel_on_disconnect,
    });
  };
  router.get('/threads/:thread_id/runs/:run_id/stream', joinStream(false));
  router.get('/runs/:run_id/stream', joinStream(true));

  // Every run of a thread, one after another, as they come; ids are `<run_id>:<seq>` so Last-Event-ID resumes.
  router.get('/threads/:thread_id/stream', async (req, res) => {
    const { thread_id } = parseRequest(threadPath, req.params, 'path');
    const query = parseRequest(joinStreamQuerySchema, req.query, 'query');
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const events = await runs.streamThread(thread_id, threadResumeFrom(req), controller.signal, await readable(res, thread_id));
    const modes = modesOf(query.stream_mode);
    const sse = new SseWriter(res, deps.sseHeartbeatMs);
    sse.open({ Location: `/threads/${thread_id}/stream` });
    try {
      for await (const { runId, event } of events) {
        if (eventInModes(event.event, modes)) await sse.send({ event: event.event, data: event.data, id: `${runId}:${event.seq}` });
      }
    } finally {
      sse.end();
    }
  });

  router.post('/threads/:thread_id/runs/:run_id/cancel', async (req, res) => {
    const { thread_id, run_id } = parseRequest(runPath, req.params, 'path');
    const { wait, action } = parseRequest(cancelQuerySchema, req.query, 'query');
    const visible = await accessOf(res).authorize('threads:update', { thread_id, action, metadata: { run_ids: [run_id], status: 'pending' } });
    await runs.cancel(thread_id, run_id, { action, wait, visible });
    res.status(wait ? 204 : 202).end();
  });

  return router;
}
