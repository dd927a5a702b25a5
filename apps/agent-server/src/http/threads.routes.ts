import { Router, type Response } from 'express';
import {
  createThread,
  extractFields,
  parseExtractPath,
  pruneThreads,
  selectStateFields,
  selectThreadFields,
  type CheckpointSelector,
  type ThreadRepository,
  type ThreadState,
  type ThreadStateService,
} from '@platform/agent-server-threads';
import { parseRequest } from '@platform/http-server';
import {
  checkpointParams,
  countBody,
  createBody,
  historyBody,
  historyQuery,
  patchBody,
  pruneBody,
  searchBody,
  stateAtCheckpointBody,
  statePatchBody,
  stateQuery,
  stateUpdateBody,
  threadParams,
} from './threads.schemas';

export interface ThreadsRoutesDeps {
  threads: ThreadRepository;
  state: ThreadStateService;
}

// A checkpoint from a request, less the thread id that the path gives.
const selector = (checkpoint: (CheckpointSelector & { thread_id?: string }) | undefined): CheckpointSelector | undefined => {
  if (!checkpoint) return undefined;
  const { thread_id: _threadId, ...rest } = checkpoint;
  return rest;
};

const sendStates = (res: Response, states: ThreadState[], select: string[] | undefined) => res.json(states.map((state) => selectStateFields(state, select)));

/** Threads, their state and history: `/threads*` of the Agent Server API (runs live in the runs routes). */
export function threadsRoutes(deps: ThreadsRoutesDeps): Router {
  const { threads, state } = deps;
  const router = Router();
  const idOf = (params: unknown) => parseRequest(threadParams, params, 'path').thread_id;

  router.post('/threads', async (req, res) => {
    const body = parseRequest(createBody, req.body ?? {});
    res.json(await createThread(deps, body));
  });

  router.post('/threads/search', async (req, res) => {
    const body = parseRequest(searchBody, req.body ?? {});
    const extract = body.extract && Object.fromEntries(Object.entries(body.extract).map(([alias, path]) => [alias, parseExtractPath(path)]));
    const filter = { metadata: body.metadata, values: body.values, status: body.status, ids: body.ids };
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const [found, total] = await Promise.all([
      threads.search({ ...filter, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order }),
      threads.count(filter),
    ]);
    res.set('X-Pagination-Total', String(total));
    if (offset + found.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(found.map((thread) => selectThreadFields(extract ? { ...thread, extracted: extractFields(thread, extract) } : thread, body.select)));
  });

  router.post('/threads/count', async (req, res) => {
    res.json(await threads.count(parseRequest(countBody, req.body ?? {})));
  });

  router.post('/threads/prune', async (req, res) => {
    const body = parseRequest(pruneBody, req.body ?? {});
    res.json({ pruned_count: await pruneThreads(deps, { threadIds: body.thread_ids, strategy: body.strategy ?? 'delete' }) });
  });

  router.get('/threads/:thread_id', async (req, res) => {
    res.json(await threads.get(idOf(req.params)));
  });

  router.patch('/threads/:thread_id', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(patchBody, req.body ?? {});
    const thread = await threads.patch(threadId, { metadata: body.metadata });
    if (/return=minimal/i.test(req.get('Prefer') ?? '')) res.status(204).end();
    else res.json(thread);
  });

  router.delete('/threads/:thread_id', async (req, res) => {
    await threads.delete(idOf(req.params));
    res.status(204).end();
  });

  router.post('/threads/:thread_id/copy', async (req, res) => {
    res.json(await threads.copy(idOf(req.params)));
  });

  router.get('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    const query = parseRequest(stateQuery, req.query, 'query');
    res.json(selectStateFields(await state.getState(threadId, { subgraphs: query.subgraphs }), query.select));
  });

  router.post('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(stateUpdateBody, req.body ?? {});
    res.json(await state.updateState(threadId, { ...body, checkpoint: selector(body.checkpoint) }));
  });

  router.patch('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    await state.patchStateMetadata(threadId, parseRequest(statePatchBody, req.body ?? {}).metadata);
    res.status(204).end();
  });

  router.post('/threads/:thread_id/state/checkpoint', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(stateAtCheckpointBody, req.body ?? {});
    const found = await state.getState(threadId, { subgraphs: body.subgraphs, checkpoint: selector(body.checkpoint) });
    res.json(selectStateFields(found, body.select));
  });

  router.get('/threads/:thread_id/state/:checkpoint_id', async (req, res) => {
    const params = parseRequest(checkpointParams, req.params, 'path');
    const query = parseRequest(stateQuery, req.query, 'query');
    const found = await state.getState(params.thread_id, { subgraphs: query.subgraphs, checkpoint: { checkpoint_id: params.checkpoint_id } });
    res.json(selectStateFields(found, query.select));
  });

  router.get('/threads/:thread_id/history', async (req, res) => {
    const threadId = idOf(req.params);
    const query = parseRequest(historyQuery, req.query, 'query');
    sendStates(res, await state.history(threadId, { limit: query.limit, before: query.before }), query.select);
  });

  router.post('/threads/:thread_id/history', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(historyBody, req.body ?? {});
    const states = await state.history(threadId, { ...body, checkpoint: selector(body.checkpoint) });
    sendStates(res, states, body.select);
  });

  return router;
}
