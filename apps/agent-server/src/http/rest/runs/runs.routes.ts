import type { Request, Response } from 'express';
import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { bothFilters } from '@platform/agent-server-auth';
import type { RunService } from '@platform/agent-server-runs';
import {
  cancelManyBodySchema,
  runBatchSchema,
  runCreateSchema,
  toRun,
  type Run,
  type RunCreateRequest,
  type RunRecord,
  type StreamMode,
} from '@platform/agent-server-run-records';
import { route, type DeclaredRoute, type ResponseSpec, type SameShape } from '@platform/openapi';
import type { ConfigurableHeaders } from '../../common/configurable-headers';
import { accessOf } from '../../common/deployment-auth.middleware';
import { errorResponse, eventStream, lastEventIdHeader, notFound, operationsOf } from '../../common/responses.schema';
import { eventInModes, jsonWhenDone, resumeFrom, runLocations, streamNotFound, streamRun, threadResumeFrom } from '../../common/run-responses';
import { SseWriter } from '../../common/sse';
import {
  cancelManyQuery,
  cancelQuery,
  joinQuery,
  joinStreamQuery,
  listQuery,
  runOutput,
  runPath,
  runResponse,
  statelessRunPath,
  threadPath,
  threadStreamQuery,
} from './runs.schemas';

export interface RunsRoutesDeps {
  runs: RunService;
  /** A `: heartbeat` comment after this long without an event. */
  sseHeartbeatMs: number;
  /** A newline after this long while a wait or join has no answer yet. */
  waitKeepAliveMs: number;
  /** The request headers a new run gets in `config.configurable` (langgraph.json `http.configurable_headers`). */
  configurableHeaders?: ConfigurableHeaders;
}

const orNullIfNotFound = (err: unknown): null => {
  if (err instanceof NotFoundError) return null;
  throw err;
};

const modesOf = (value: StreamMode | StreamMode[] | undefined) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

// `kwargs` is documented as an object (what the run was created with); the rest is the run as `toRun` makes it.
const _run: SameShape<Omit<z.output<typeof runResponse>, 'kwargs'>, Omit<Run, 'kwargs'>> = true;

const threadRuns = operationsOf('Thread Runs');
const statelessRuns = operationsOf('Stateless Runs');
const threads = operationsOf('Threads');

const locations = {
  'Content-Location': { description: 'The run: `/threads/{thread_id}/runs/{run_id}` (`/runs/{run_id}` without a thread)', schema: z.string() },
  Location: { description: 'Its joinable stream: `/threads/{thread_id}/runs/{run_id}/stream`', schema: z.string() },
};
const busy = { 409: { description: 'The thread is busy and multitask_strategy is reject', schema: errorResponse } };
const created = { 200: { description: 'The run, started in the background', schema: runResponse, headers: locations }, 404: notFound };
const streamed = { 200: eventStream(locations), 404: notFound };
const waited = { 200: { description: 'The final state values (newlines before them while the run goes on)', schema: runOutput, headers: locations }, 404: notFound };
const resumeHeader = lastEventIdHeader('Resume after this event (-1: from the start)');

/**
 * Thread runs and stateless runs: create (background, `/stream`, `/wait`, `/batch`), list, get, delete, join,
 * join the stream (`Last-Event-ID`), cancel one or many. Under the deployment's auth a run is its thread's: the
 * `threads:*` handlers decide, as LangGraph has them (create_run, read, delete, update). A run-creating body is
 * parsed once, by the route (`runCreateSchema`), and handed to `RunService.create` as parsed.
 */
export function runsRoutes(deps: RunsRoutesDeps): DeclaredRoute[] {
  const { runs } = deps;

  // The request's headers go into the run's `configurable` over the body's, as LangGraph copies them.
  const withHeaders = (req: Request, request: RunCreateRequest): RunCreateRequest => {
    const headers = deps.configurableHeaders?.(req.headers);
    if (!headers || Object.keys(headers).length === 0) return request;
    const config = request.config ?? {};
    return { ...request, config: { ...config, configurable: { ...(config.configurable as Record<string, unknown> | undefined), ...headers } } };
  };
  const create = async (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => {
    const request = withHeaders(req, body);
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

  const background = (stateless: boolean) => async (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => {
    const { run } = await create(req, res, threadId, body);
    res.set(runLocations(run.thread_id, run.run_id, stateless)).json(toRun(run));
  };

  const stream = (stateless: boolean) => async (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => {
    const { request, run } = await create(req, res, threadId, body);
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

  const wait = (stateless: boolean) => async (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => {
    const { request, run } = await create(req, res, threadId, body);
    res.set(runLocations(run.thread_id, run.run_id, stateless));
    cancelOnClose(res, run, request.on_disconnect === 'cancel');
    await jsonWhenDone(res, runs.output(run, { fresh: true }), deps.waitKeepAliveMs, { headersAtOnce: true });
  };

  // One run-creating route on a thread and one without: same body, same answer.
  const onThread = (
    spec: ReturnType<typeof threadRuns>,
    responses: Record<number, ResponseSpec>,
    handle: (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => Promise<void>,
  ) =>
    route({ ...spec, params: threadPath, body: runCreateSchema, responses: { ...responses, ...busy } }, ({ params, body }, req, res) =>
      handle(req, res, params.thread_id, body),
    );
  const stateless = (
    spec: ReturnType<typeof statelessRuns>,
    responses: Record<number, ResponseSpec>,
    handle: (req: Request, res: Response, threadId: string | null, body: RunCreateRequest) => Promise<void>,
  ) => route({ ...spec, body: runCreateSchema, responses }, ({ body }, req, res) => handle(req, res, null, body));

  const createRun = onThread(threadRuns('post', '/threads/:thread_id/runs', 'create_run', 'Start a run in the background'), created, background(false));
  const streamRunRoute = onThread(threadRuns('post', '/threads/:thread_id/runs/stream', 'stream_run', 'Start a run and stream its events'), streamed, stream(false));
  const waitRun = onThread(threadRuns('post', '/threads/:thread_id/runs/wait', 'wait_run', 'Start a run and wait for its final state'), waited, wait(false));
  const createStateless = stateless(statelessRuns('post', '/runs', 'create_stateless_run', 'Start a run on a temporary thread'), created, background(true));
  const streamStateless = stateless(statelessRuns('post', '/runs/stream', 'stream_stateless_run', 'Start a run without a thread and stream its events'), streamed, stream(true));
  const waitStateless = stateless(statelessRuns('post', '/runs/wait', 'wait_stateless_run', 'Start a run without a thread and wait for its output'), waited, wait(true));

  const batch = route(
    {
      ...statelessRuns('post', '/runs/batch', 'create_stateless_runs', 'Start several runs'),
      body: runBatchSchema,
      responses: { 200: { description: 'The runs, started in the background', schema: z.array(runResponse) }, 404: notFound },
    },
    async ({ body }, req, res) => {
      const started: RunRecord[] = [];
      for (const request of body) started.push(await runs.create({ threadId: null }, withHeaders(req, request), accessOf(res)));
      res.json(started.map(toRun));
    },
  );

  const cancelMany = route(
    {
      ...statelessRuns('post', '/runs/cancel', 'cancel_runs', 'Cancel runs by id, by thread or by status'),
      query: cancelManyQuery,
      body: cancelManyBodySchema,
      responses: { 204: { description: 'Cancelled' }, 404: notFound },
    },
    async ({ query: { action }, body }, _req, res) => {
      const filter = { threadId: body.thread_id ?? undefined, runIds: body.run_ids ?? undefined, status: body.status ?? undefined };
      const visible = await accessOf(res).authorize('threads:update', {
        thread_id: filter.threadId,
        action,
        metadata: { run_ids: filter.runIds, status: filter.status },
      });
      await runs.cancelMany({ ...filter, visible }, action);
      res.status(204).end();
    },
  );

  const list = route(
    {
      ...threadRuns('get', '/threads/:thread_id/runs', 'list_runs', "List a thread's runs, newest first"),
      params: threadPath,
      query: listQuery,
      responses: { 200: { description: 'The runs', schema: z.array(runResponse) }, 404: notFound },
    },
    async ({ params: { thread_id }, query }, _req, res) => {
      // As in the reference, listing is a search among the thread's runs and a read of the thread.
      const searchable = await accessOf(res).authorize('threads:search', { thread_id, status: query.status });
      const visible = bothFilters(searchable, await readable(res, thread_id));
      const found = await runs.list(thread_id, { limit: query.limit, offset: query.offset, status: query.status }, visible);
      res.json(found.map(toRun));
    },
  );

  const get = route(
    { ...threadRuns('get', '/threads/:thread_id/runs/:run_id', 'get_run', 'Get a run'), params: runPath, responses: { 200: { description: 'The run', schema: runResponse }, 404: notFound } },
    async ({ params: { thread_id, run_id } }, _req, res) => {
      res.json(toRun(await runs.get(thread_id, run_id, await readable(res, thread_id))));
    },
  );

  const remove = route(
    { ...threadRuns('delete', '/threads/:thread_id/runs/:run_id', 'delete_run', 'Delete a finished run'), params: runPath, responses: { 204: { description: 'Deleted' }, 404: notFound } },
    async ({ params: { thread_id, run_id } }, _req, res) => {
      await runs.delete(thread_id, run_id, await accessOf(res).authorize('threads:delete', { thread_id, run_id }));
      res.status(204).end();
    },
  );

  const join = route(
    {
      ...threadRuns('get', '/threads/:thread_id/runs/:run_id/join', 'join_run', 'Wait for a run to finish; its final state values'),
      params: runPath,
      query: joinQuery,
      responses: { 200: { description: 'The final state values (newlines before them while the run goes on)', schema: runOutput }, 404: notFound },
    },
    async ({ params: { thread_id, run_id }, query }, _req, res) => {
      const run = await runs.get(thread_id, run_id, await readable(res, thread_id));
      cancelOnClose(res, run, query.cancel_on_disconnect);
      await jsonWhenDone(res, runs.output(run), deps.waitKeepAliveMs);
    },
  );

  const joinStream = async (req: Request, res: Response, run: RunRecord, stateless: boolean, query: z.output<typeof joinStreamQuery>) => {
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
  // What joining a run's stream takes and answers, on a thread or not.
  const joining = { query: joinStreamQuery, headers: resumeHeader, responses: { 200: eventStream(locations) } };
  // A run the caller cannot have is not an HTTP error here, as on the reference: the stream opens and its one
  // `error` event says so (a thread the caller's auth hides, else a run the thread does not have); a stateless
  // join of an unknown run is an empty stream.
  const joinRunStream = route(
    { ...threadRuns('get', '/threads/:thread_id/runs/:run_id/stream', 'join_run_stream', "Join a run's event stream"), params: runPath, ...joining },
    async ({ params: { thread_id, run_id }, query }, req, res) => {
      const visible = await readable(res, thread_id);
      const run = await runs.get(thread_id, run_id, visible).catch(orNullIfNotFound);
      if (run) return joinStream(req, res, run, false, query);
      const hidden = visible !== undefined && !(await runs.threadVisible(thread_id, visible));
      await streamNotFound(res, hidden ? { error: 'Error', message: '404: Thread not found' } : 'Run not found');
    },
  );
  const joinStatelessStream = route(
    { ...statelessRuns('get', '/runs/:run_id/stream', 'join_stateless_run_stream', "Join a stateless run's event stream"), params: statelessRunPath, ...joining },
    async ({ params: { run_id }, query }, req, res) => {
      const run = await runs.getById(run_id, await readable(res, undefined)).catch(orNullIfNotFound);
      if (run) return joinStream(req, res, run, true, query);
      await streamNotFound(res, null, { 'Content-Location': `/runs/${run_id}` });
    },
  );

  // Every run of a thread, one after another, as they come; ids are `<run_id>:<seq>` so Last-Event-ID resumes.
  const joinThreadStream = route(
    {
      ...threads('get', '/threads/:thread_id/stream', 'join_thread_stream', "Join the stream of the thread's runs"),
      params: threadPath,
      query: threadStreamQuery,
      headers: lastEventIdHeader('Resume after this event (`<run_id>:<seq>`)'),
      responses: { 200: eventStream({ Location: { description: '`/threads/{thread_id}/stream`', schema: z.string() } }), 404: notFound },
    },
    async ({ params: { thread_id }, query }, req, res) => {
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
    },
  );

  const cancel = route(
    {
      ...threadRuns('post', '/threads/:thread_id/runs/:run_id/cancel', 'cancel_run', 'Cancel a run'),
      params: runPath,
      query: cancelQuery,
      responses: { 202: { description: 'Cancelling' }, 204: { description: 'Cancelled (`wait`)' }, 404: notFound },
    },
    async ({ params: { thread_id, run_id }, query: { wait, action } }, _req, res) => {
      const visible = await accessOf(res).authorize('threads:update', { thread_id, action, metadata: { run_ids: [run_id], status: 'pending' } });
      await runs.cancel(thread_id, run_id, { action, wait, visible });
      res.status(wait ? 204 : 202).end();
    },
  );

  // In the order express tries them: the creating routes (the hot path) first.
  return [
    createRun,
    streamRunRoute,
    waitRun,
    createStateless,
    streamStateless,
    waitStateless,
    batch,
    cancelMany,
    list,
    get,
    remove,
    join,
    joinRunStream,
    joinStatelessStream,
    joinThreadStream,
    cancel,
  ];
}
