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
import { errorResponse, notFound, paginationHeaders } from '../../common/responses.schema';
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

const tags = ['Threads'];
const threadAnswer = { description: 'The thread', schema: threadResponse };
const stateAnswer = { description: 'The state', schema: threadStateResponse };
const states = { description: 'The states, newest first', schema: z.array(threadStateResponse) };

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
    {
      method: 'post',
      path: '/threads',
      operationId: 'create_thread',
      tags,
      summary: 'Create a thread',
      body: createBody,
      responses: { 200: threadAnswer, 409: { description: 'The thread id is taken', schema: errorResponse } },
    },
    async ({ body }, _req, res) => {
      const value = { thread_id: body.thread_id ?? randomUUID(), metadata: { ...body.metadata }, if_exists: body.if_exists ?? 'raise' };
      const visible = await accessOf(res).authorize('threads:create', value);
      res.json(await createThread(deps, { ...body, thread_id: value.thread_id, metadata: metadataIn(value) }, visible));
    },
  );

  const search = route(
    {
      method: 'post',
      path: '/threads/search',
      operationId: 'search_threads',
      tags,
      summary: 'Search threads',
      body: searchBody,
      responses: { 200: { description: 'The threads (only the fields `select` names, when it does)', schema: z.array(threadResponse), headers: paginationHeaders } },
    },
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
      res.set('X-Pagination-Total', String(total));
      if (offset + found.length < total) res.set('X-Pagination-Next', String(offset + limit));
      res.json(found.map((thread) => selectThreadFields(extract ? { ...thread, extracted: extractFields(thread, extract) } : thread, body.select)));
    },
  );

  const count = route(
    {
      method: 'post',
      path: '/threads/count',
      operationId: 'count_threads',
      tags,
      summary: 'Count threads',
      body: countBody,
      responses: { 200: { description: 'How many threads match', schema: z.number().int() } },
    },
    async ({ body: filter }, _req, res) => {
      const visible = await accessOf(res).authorize('threads:search', { ...filter, limit: 0, offset: 0 });
      res.json(await threads.count(filter, visible));
    },
  );

  const prune = route(
    {
      method: 'post',
      path: '/threads/prune',
      operationId: 'prune_threads',
      tags,
      summary: 'Delete threads, or keep only their latest checkpoint',
      body: pruneBody,
      responses: { 200: { description: 'How many threads were pruned', schema: z.object({ pruned_count: z.number().int() }) } },
    },
    async ({ body }, _req, res) => {
      const strategy = body.strategy ?? 'delete';
      const visible = await accessOf(res).authorize('threads:delete', { thread_ids: body.thread_ids, strategy });
      res.json({ pruned_count: await pruneThreads(deps, { threadIds: body.thread_ids, strategy }, visible) });
    },
  );

  const get = route(
    {
      method: 'get',
      path: '/threads/:thread_id',
      operationId: 'get_thread',
      tags,
      summary: 'Get a thread',
      params: threadParams,
      responses: { 200: threadAnswer, 404: notFound },
    },
    async ({ params }, _req, res) => {
      const threadId = params.thread_id;
      res.json(await threads.get(threadId, await accessOf(res).authorize('threads:read', { thread_id: threadId })));
    },
  );

  const patch = route(
    {
      method: 'patch',
      path: '/threads/:thread_id',
      operationId: 'patch_thread',
      tags,
      summary: "Update a thread's metadata",
      params: threadParams,
      body: patchBody,
      responses: { 200: threadAnswer, 204: { description: 'Updated (`Prefer: return=minimal`)' }, 404: notFound },
    },
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
    {
      method: 'delete',
      path: '/threads/:thread_id',
      operationId: 'delete_thread',
      tags,
      summary: 'Delete a thread with its runs and checkpoints',
      params: threadParams,
      responses: { 204: { description: 'Deleted' }, 404: notFound },
    },
    async ({ params }, _req, res) => {
      const threadId = params.thread_id;
      await threads.delete(threadId, await accessOf(res).authorize('threads:delete', { thread_id: threadId }));
      res.status(204).end();
    },
  );

  // The copy is a new thread: the source must be readable, and `threads:create` decides the copy's metadata.
  const copy = route(
    {
      method: 'post',
      path: '/threads/:thread_id/copy',
      operationId: 'copy_thread',
      tags,
      summary: 'Copy a thread with its checkpoints',
      params: threadParams,
      responses: { 200: threadAnswer, 404: notFound },
    },
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
    {
      method: 'get',
      path: '/threads/:thread_id/state',
      operationId: 'get_thread_state',
      tags,
      summary: 'Latest state',
      params: threadParams,
      query: stateQuery,
      responses: { 200: stateAnswer, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      res.json(selectStateFields(await state.getState(threadId, { subgraphs: query.subgraphs }), query.select));
    },
  );

  const updateState = route(
    {
      method: 'post',
      path: '/threads/:thread_id/state',
      operationId: 'update_thread_state',
      tags,
      summary: 'Update the state as a node would',
      params: threadParams,
      body: stateUpdateBody,
      responses: { 200: { description: 'The checkpoint written', schema: z.object({ checkpoint: z.record(z.string(), z.unknown()) }) }, 404: notFound, 409: { description: 'The thread is busy', schema: errorResponse } },
    },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:update', threadId);
      res.json(await state.updateState(threadId, { ...body, checkpoint: selector(body.checkpoint) }));
    },
  );

  const patchState = route(
    {
      method: 'patch',
      path: '/threads/:thread_id/state',
      operationId: 'patch_thread_state',
      tags,
      summary: "Update the latest checkpoint's metadata",
      params: threadParams,
      body: statePatchBody,
      responses: { 204: { description: 'Updated' }, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      const { metadata } = body;
      await gate(res, 'threads:update', threadId);
      await state.patchStateMetadata(threadId, metadata);
      res.status(204).end();
    },
  );

  const stateAtCheckpoint = route(
    {
      method: 'post',
      path: '/threads/:thread_id/state/checkpoint',
      operationId: 'get_thread_state_at_checkpoint_post',
      tags,
      summary: 'State at a checkpoint',
      params: threadParams,
      body: stateAtCheckpointBody,
      responses: { 200: stateAnswer, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      const found = await state.getState(threadId, { subgraphs: body.subgraphs, checkpoint: selector(body.checkpoint) });
      res.json(selectStateFields(found, body.select));
    },
  );

  const stateAt = route(
    {
      method: 'get',
      path: '/threads/:thread_id/state/:checkpoint_id',
      operationId: 'get_thread_state_at_checkpoint',
      tags,
      summary: 'State at a checkpoint',
      params: checkpointParams,
      query: stateQuery,
      responses: { 200: stateAnswer, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      await gate(res, 'threads:read', params.thread_id);
      const found = await state.getState(params.thread_id, { subgraphs: query.subgraphs, checkpoint: { checkpoint_id: params.checkpoint_id } });
      res.json(selectStateFields(found, query.select));
    },
  );

  const history = route(
    {
      method: 'get',
      path: '/threads/:thread_id/history',
      operationId: 'get_thread_history',
      tags,
      summary: 'Past states, newest first',
      params: threadParams,
      query: historyQuery,
      responses: { 200: states, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      sendStates(res, await state.history(threadId, { limit: query.limit, before: query.before }), query.select);
    },
  );

  const historyPost = route(
    {
      method: 'post',
      path: '/threads/:thread_id/history',
      operationId: 'get_thread_history_post',
      tags,
      summary: 'Past states, newest first',
      params: threadParams,
      body: historyBody,
      responses: { 200: states, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const threadId = params.thread_id;
      await gate(res, 'threads:read', threadId);
      const states = await state.history(threadId, { ...body, checkpoint: selector(body.checkpoint) });
      sendStates(res, states, body.select);
    },
  );

  return [create, search, count, prune, get, patch, remove, copy, getState, updateState, patchState, stateAtCheckpoint, stateAt, history, historyPost];
}
