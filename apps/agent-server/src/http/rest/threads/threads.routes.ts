import { randomUUID } from 'node:crypto';
import { Router, type Response } from 'express';
import { metadataIn, type AuthEvent } from '@platform/agent-server-auth';
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
import { NotFoundError } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { accessOf } from '../../common/deployment-auth.middleware';
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

/**
 * Threads, their state and history: `/threads*` of the Agent Server API (runs live in the runs routes). Under the
 * deployment's auth, each route asks its handler (`threads:create`, `threads:read`, ...) as LangGraph does.
 */
export function threadsRoutes(deps: ThreadsRoutesDeps): Router {
  const { threads, state } = deps;
  const router = Router();
  const idOf = (params: unknown) => parseRequest(threadParams, params, 'path').thread_id;
  // State and history go through the graph: a thread the caller's filter hides is not found before that.
  const gate = async (res: Response, event: AuthEvent, threadId: string) => {
    const visible = await accessOf(res).authorize(event, { thread_id: threadId });
    if (visible) await threads.get(threadId, visible);
  };

  router.post('/threads', async (req, res) => {
    const body = parseRequest(createBody, req.body ?? {});
    const value = { thread_id: body.thread_id ?? randomUUID(), metadata: { ...body.metadata }, if_exists: body.if_exists ?? 'raise' };
    const visible = await accessOf(res).authorize('threads:create', value);
    res.json(await createThread(deps, { ...body, thread_id: value.thread_id, metadata: metadataIn(value) }, visible));
  });

  router.post('/threads/search', async (req, res) => {
    const body = parseRequest(searchBody, req.body ?? {});
    const extract = body.extract && Object.fromEntries(Object.entries(body.extract).map(([alias, path]) => [alias, parseExtractPath(path)]));
    const filter = { metadata: body.metadata, values: body.values, status: body.status, ids: body.ids };
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const visible = await accessOf(res).authorize('threads:search', { ...filter, limit, offset });
    const [found, total] = await Promise.all([
      threads.search({ ...filter, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order }, visible),
      threads.count(filter, visible),
    ]);
    res.set('X-Pagination-Total', String(total));
    if (offset + found.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(found.map((thread) => selectThreadFields(extract ? { ...thread, extracted: extractFields(thread, extract) } : thread, body.select)));
  });

  router.post('/threads/count', async (req, res) => {
    const filter = parseRequest(countBody, req.body ?? {});
    const visible = await accessOf(res).authorize('threads:search', { ...filter, limit: 0, offset: 0 });
    res.json(await threads.count(filter, visible));
  });

  router.post('/threads/prune', async (req, res) => {
    const body = parseRequest(pruneBody, req.body ?? {});
    const strategy = body.strategy ?? 'delete';
    const visible = await accessOf(res).authorize('threads:delete', { thread_ids: body.thread_ids, strategy });
    res.json({ pruned_count: await pruneThreads(deps, { threadIds: body.thread_ids, strategy }, visible) });
  });

  router.get('/threads/:thread_id', async (req, res) => {
    const threadId = idOf(req.params);
    res.json(await threads.get(threadId, await accessOf(res).authorize('threads:read', { thread_id: threadId })));
  });

  router.patch('/threads/:thread_id', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(patchBody, req.body ?? {});
    const value = { thread_id: threadId, metadata: body.metadata ?? undefined };
    const visible = await accessOf(res).authorize('threads:update', value);
    const thread = await threads.patch(threadId, { metadata: metadataIn(value) }, visible);
    if (/return=minimal/i.test(req.get('Prefer') ?? '')) res.status(204).end();
    else res.json(thread);
  });

  router.delete('/threads/:thread_id', async (req, res) => {
    const threadId = idOf(req.params);
    await threads.delete(threadId, await accessOf(res).authorize('threads:delete', { thread_id: threadId }));
    res.status(204).end();
  });

  // The copy is a new thread: the source must be readable, and `threads:create` decides the copy's metadata.
  router.post('/threads/:thread_id/copy', async (req, res) => {
    const threadId = idOf(req.params);
    const access = accessOf(res);
    const visible = await access.authorize('threads:read', { thread_id: threadId });
    if (!access.caller) return res.json(await threads.copy(threadId, { visible }));
    const source = await threads.find(threadId, visible);
    if (!source) throw new NotFoundError('Thread not found');
    // The copy's metadata names the copy (as the repository's copy writes it), before the handler sees it.
    const copyId = randomUUID();
    const value = { thread_id: copyId, metadata: { ...source.metadata, thread_id: copyId } };
    await access.authorize('threads:create', value);
    res.json(await threads.copy(threadId, { visible, copyId, metadata: metadataIn(value) ?? {} }));
  });

  router.get('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    const query = parseRequest(stateQuery, req.query, 'query');
    await gate(res, 'threads:read', threadId);
    res.json(selectStateFields(await state.getState(threadId, { subgraphs: query.subgraphs }), query.select));
  });

  router.post('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(stateUpdateBody, req.body ?? {});
    await gate(res, 'threads:update', threadId);
    res.json(await state.updateState(threadId, { ...body, checkpoint: selector(body.checkpoint) }));
  });

  router.patch('/threads/:thread_id/state', async (req, res) => {
    const threadId = idOf(req.params);
    const { metadata } = parseRequest(statePatchBody, req.body ?? {});
    await gate(res, 'threads:update', threadId);
    await state.patchStateMetadata(threadId, metadata);
    res.status(204).end();
  });

  router.post('/threads/:thread_id/state/checkpoint', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(stateAtCheckpointBody, req.body ?? {});
    await gate(res, 'threads:read', threadId);
    const found = await state.getState(threadId, { subgraphs: body.subgraphs, checkpoint: selector(body.checkpoint) });
    res.json(selectStateFields(found, body.select));
  });

  router.get('/threads/:thread_id/state/:checkpoint_id', async (req, res) => {
    const params = parseRequest(checkpointParams, req.params, 'path');
    const query = parseRequest(stateQuery, req.query, 'query');
    await gate(res, 'threads:read', params.thread_id);
    const found = await state.getState(params.thread_id, { subgraphs: query.subgraphs, checkpoint: { checkpoint_id: params.checkpoint_id } });
    res.json(selectStateFields(found, query.select));
  });

  router.get('/threads/:thread_id/history', async (req, res) => {
    const threadId = idOf(req.params);
    const query = parseRequest(historyQuery, req.query, 'query');
    await gate(res, 'threads:read', threadId);
    sendStates(res, await state.history(threadId, { limit: query.limit, before: query.before }), query.select);
  });

  router.post('/threads/:thread_id/history', async (req, res) => {
    const threadId = idOf(req.params);
    const body = parseRequest(historyBody, req.body ?? {});
    await gate(res, 'threads:read', threadId);
    const states = await state.history(threadId, { ...body, checkpoint: selector(body.checkpoint) });
    sendStates(res, states, body.select);
  });

  return router;
}
