import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { z } from 'zod';
import { metadataIn, type AuthEvent } from '@platform/agent-server-auth';
import {
  createThread,
  extractFields,
  parseExtractPath,
  pruneThreads,
  selectStateFields,
  selectThreadFields,
  type CheckpointSelector,
  type Thread,
  type ThreadRepository,
  type ThreadState,
  type ThreadStateService,
} from '@platform/agent-server-threads';
import { NotFoundError } from '@platform/errors';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { accessOf } from '../../common/deployment-auth.middleware';
import { deleted, errorResponse, notFound, operationsOf, paginationHeaders, setPageHeaders } from '../../common/responses.schema';
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
  threadResponse,
  threadStateResponse,
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

const _thread: SameShape<z.output<typeof threadResponse>, Thread> = true;

const op = operationsOf('Threads');
const found = { 200: { description: 'The thread', schema: threadResponse }, 404: notFound };
const created = { 200: found[200], 409: { description: 'The thread id is taken', schema: errorResponse } };
const page = { 200: { description: 'The threads (only the fields `select` names, when it does)', schema: z.array(threadResponse), headers: paginationHeaders } };
const pruned = { 200: { description: 'How many threads were pruned', schema: z.object({ pruned_count: z.number().int() }) } };
const patched = { ...found, 204: { description: 'Updated (`Prefer: return=minimal`)' } };
const stateFound = { 200: { description: 'The state', schema: threadStateResponse }, 404: notFound };
const stateWritten = {
  200: { description: 'The checkpoint written', schema: z.object({ checkpoint: z.record(z.string(), z.unknown()) }) },
  404: notFound,
  409: { description: 'The thread is busy', schema: errorResponse },
};
const stateUpdated = { 204: { description: 'Updated' }, 404: notFound };
const historyFound = { 200: { description: 'The states, newest first', schema: z.array(threadStateResponse) }, 404: notFound };

/**
 * Threads, their state and history: `/threads*` of the Agent Server API (runs live in the runs routes). Under the
 * deployment's auth, each route asks its handler (`threads:create`, `threads:read`, ...) as LangGraph does.
 */
export function threadsRoutes(deps: ThreadsRoutesDeps): DeclaredRoute[] {
  const { threads, state } = deps;
  // State and history go through the graph: a thread the caller's filter hides is not found before that.
  const gate = async (res: Response, event: AuthEvent, threadId: string) => {
    const visible = await accessOf(res).authorize(event, { thread_id: threadId });
    if (visible) await threads.get(threadId, visible);
  };

  const create = route(
    { ...op('post', '/threads', 'create_thread', 'Create a thread'), body: createBody, responses: created },
    async ({ body }, _req, res) => {
      const value = { thread_id: body.thread_id ?? randomUUID(), metadata: { ...body.metadata }, if_exists: body.if_exists ?? 'raise' };
      const visible = await accessOf(res).authorize('threads:create', value);
      res.json(await createThread(deps, { ...body, thread_id: value.thread_id, metadata: metadataIn(value) }, visible));
    },
  );

  const search = route(
    { ...op('post', '/threads/search', 'search_threads', 'Search threads'), body: searchBody, responses: page },
    async ({ body }, _req, res) => {
      const extract = body.extract && Object.fromEntries(Object.entries(body.extract).map(([alias, path]) => [alias, parseExtractPath(path)]));
      const filter = { metadata: body.metadata, values: body.values, status: body.status, ids: body.ids };
      const limit = body.limit ?? 10;
      const offset = body.offset ?? 0;
      const visible = await accessOf(res).authorize('threads:search', { ...filter, limit, offset });
      const [found, total] = await Promise.all([
        threads.search({ ...filter, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order }, visible),
        threads.count(filter, visible),
      ]);
      setPageHeaders(res, { total, offset, limit, count: found.length });
      res.json(found.map((thread) => selectThreadFields(extract ? { ...thread, extracted: extractFields(thread, extract) } : thread, body.select)));
    },
  );

  const count = route(
    { ...op('post', '/threads/count', 'count_threads', 'Count threads'), body: countBody, responses: { 200: { description: 'How many threads match', schema: z.number().int() } } },
    async ({ body: filter }, _req, res) => {
      const visible = await accessOf(res).authorize('threads:search', { ...filter, limit: 0, offset: 0 });
      res.json(await threads.count(filter, visible));
    },
  );

  const prune = route(
    { ...op('post', '/threads/prune', 'prune_threads', 'Delete threads, or keep only their latest checkpoint'), body: pruneBody, responses: pruned },
    async ({ body }, _req, res) => {
      const strategy = body.strategy ?? 'delete';
      const visible = await accessOf(res).authorize('threads:delete', { thread_ids: body.thread_ids, strategy });
      res.json({ pruned_count: await pruneThreads(deps, { threadIds: body.thread_ids, strategy }, visible) });
    },
  );

  const get = route(
    { ...op('get', '/threads/:thread_id', 'get_thread', 'Get a thread'), params: threadParams, responses: found },
    async ({ params }, _req, res) => {
      const threadId = params.thread_id;
      res.json(await threads.get(threadId, await accessOf(res).authorize('threads:read', { thread_id: threadId })));
    },
  );

  const patch = route(
    { ...op('patch', '/threads/:thread_id', 'patch_thread', "Update a thread's metadata"), params: threadParams, body: patchBody, responses: patched },
    async ({ params, body }, req, res) => {
      const threadId = params.thread_id;
      const value = { thread_id: threadId, metadata: body.metadata ?? undefined };
      const visible = await accessOf(res).authorize('threads:update', value);
      const thread = await threads.patch(threadId, { metadata: metadataIn(value) }, visible);
      if (/return=minimal/i.test(req.get('Prefer') ?? '')) res.status(204).end();
      else res.json(thread);
    },
  );

  const remove = route(
    { ...op('delete', '/threads/:thread_id', 'delete_thread', 'Delete a thread with its runs and checkpoints'), params: threadParams, responses: deleted },
    async ({ params }, _req, res) => {
      const threadId = params.thread_id;
      await threads.delete(threadId, await accessOf(res).authorize('threads:delete', { thread_id: threadId }));
      res.status(204).end();
    },
  );

  // The copy is a new thread: the source must be readable, and `threads:create` decides the copy's metadata.
  const copy = route(
    { ...op('post', '/threads/:thread_id/copy', 'copy_thread', 'Copy a thread with its checkpoints'), params: threadParams, responses: found },
    async ({ params }, _req, res) => {
      const threadId = params.thread_id;
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
    },
  );

  const getState = route(
    { ...op('get', '/threads/:thread_id/state', 'get_thread_state', 'Latest state'), params: threadParams, query: stateQuery, responses: stateFound },
    async ({ params, query }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      res.json(selectStateFields(await state.getState(threadId, { subgraphs: query.subgraphs }), query.select));
    },
  );

  const updateState = route(
    { ...op('post', '/threads/:thread_id/state', 'update_thread_state', 'Update the state as a node would'), params: threadParams, body: stateUpdateBody, responses: stateWritten },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:update', threadId);
      res.json(await state.updateState(threadId, { ...body, checkpoint: selector(body.checkpoint) }));
    },
  );

  const patchState = route(
    { ...op('patch', '/threads/:thread_id/state', 'patch_thread_state', "Update the latest checkpoint's metadata"), params: threadParams, body: statePatchBody, responses: stateUpdated },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      const { metadata } = body;
      await gate(res, 'threads:update', threadId);
      await state.patchStateMetadata(threadId, metadata);
      res.status(204).end();
    },
  );

  const stateAtCheckpoint = route(
    { ...op('post', '/threads/:thread_id/state/checkpoint', 'get_thread_state_at_checkpoint_post', 'State at a checkpoint'), params: threadParams, body: stateAtCheckpointBody, responses: stateFound },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      const found = await state.getState(threadId, { subgraphs: body.subgraphs, checkpoint: selector(body.checkpoint) });
      res.json(selectStateFields(found, body.select));
    },
  );

  const stateAt = route(
    { ...op('get', '/threads/:thread_id/state/:checkpoint_id', 'get_thread_state_at_checkpoint', 'State at a checkpoint'), params: checkpointParams, query: stateQuery, responses: stateFound },
    async ({ params, query }, _req, res) => {
      await gate(res, 'threads:read', params.thread_id);
      const found = await state.getState(params.thread_id, { subgraphs: query.subgraphs, checkpoint: { checkpoint_id: params.checkpoint_id } });
      res.json(selectStateFields(found, query.select));
    },
  );

  const history = route(
    { ...op('get', '/threads/:thread_id/history', 'get_thread_history', 'Past states, newest first'), params: threadParams, query: historyQuery, responses: historyFound },
    async ({ params, query }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      sendStates(res, await state.history(threadId, { limit: query.limit, before: query.before }), query.select);
    },
  );

  const historyPost = route(
    { ...op('post', '/threads/:thread_id/history', 'get_thread_history_post', 'Past states, newest first'), params: threadParams, body: historyBody, responses: historyFound },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      const states = await state.history(threadId, { ...body, checkpoint: selector(body.checkpoint) });
      sendStates(res, states, body.select);
    },
  );

  return [create, search, count, prune, get, patch, remove, copy, getState, updateState, patchState, stateAtCheckpoint, stateAt, history, historyPost];
}
