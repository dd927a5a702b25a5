import { joinStreamQuerySchema } from '@platform/agent-server-runs';
import { parametersOf } from '@platform/openapi';
import { historyQuery, stateQuery } from '../rest/threads/threads.schemas';
import { arrayOf, dict, int, object, operation, pathParam, ref, str, uuid } from './openapi-helpers';

const T = 'Threads';

const threadId = pathParam('thread_id', 'Thread id', uuid());
const checkpointId = pathParam('checkpoint_id', 'Checkpoint id');
const pagination = { 'X-Pagination-Total': int('Matching items in all'), 'X-Pagination-Next': int('Offset of the next page, when there is one') };
// Query parameters from the zod schemas the routes parse them with; the descriptions are added here.
const query = (schema: Parameters<typeof parametersOf>[0], descriptions: Record<string, string> = {}) => parametersOf(schema, 'query', { descriptions });
const select = { select: 'State fields to return (values, next, tasks, ... or values.<key>)' };

export const threadsPaths = {
  '/threads': {
    post: operation(T, 'create_thread', { summary: 'Create a thread', body: ref('ThreadCreate'), response: ref('Thread'), errors: { '409': { description: 'The thread id is taken' } } }),
  },
  '/threads/search': {
    post: operation(T, 'search_threads', { summary: 'Search threads', body: ref('ThreadSearchRequest'), response: arrayOf(ref('Thread')), headers: pagination }),
  },
  '/threads/count': { post: operation(T, 'count_threads', { summary: 'Count threads', body: ref('ThreadCountRequest'), response: int() }) },
  '/threads/prune': {
    post: operation(T, 'prune_threads', { summary: 'Delete threads, or keep only their latest checkpoint', body: ref('ThreadPruneRequest'), response: { type: 'object', properties: { pruned_count: int() } } }),
  },
  '/threads/{thread_id}': {
    get: operation(T, 'get_thread', { summary: 'Get a thread', params: [threadId], response: ref('Thread') }),
    patch: operation(T, 'patch_thread', { summary: "Update a thread's metadata", params: [threadId], body: ref('ThreadPatch'), response: ref('Thread') }),
    delete: operation(T, 'delete_thread', { summary: 'Delete a thread with its runs and checkpoints', params: [threadId] }),
  },
  '/threads/{thread_id}/copy': {
    post: operation(T, 'copy_thread', { summary: 'Copy a thread with its checkpoints', params: [threadId], response: ref('Thread') }),
  },
  '/threads/{thread_id}/state': {
    get: operation(T, 'get_thread_state', { summary: 'Latest state', params: [threadId, ...query(stateQuery, { subgraphs: 'Include subgraph states', ...select })], response: ref('ThreadState') }),
    post: operation(T, 'update_thread_state', {
      summary: 'Update the state as a node would',
      params: [threadId],
      body: ref('ThreadStateUpdate'),
      response: { type: 'object', properties: { checkpoint: dict() } },
      errors: { '409': { description: 'The thread is busy' } },
    }),
    patch: operation(T, 'patch_thread_state', { summary: "Update the latest checkpoint's metadata", params: [threadId], body: { type: 'object', properties: { metadata: dict() } } }),
  },
  '/threads/{thread_id}/state/checkpoint': {
    post: operation(T, 'get_thread_state_at_checkpoint_post', { summary: 'State at a checkpoint', params: [threadId], body: ref('ThreadStateCheckpointRequest'), response: ref('ThreadState') }),
  },
  '/threads/{thread_id}/state/{checkpoint_id}': {
    get: operation(T, 'get_thread_state_at_checkpoint', { summary: 'State at a checkpoint', params: [threadId, checkpointId, ...query(stateQuery, { subgraphs: 'Include subgraph states', ...select })], response: ref('ThreadState') }),
  },
  '/threads/{thread_id}/history': {
    get: operation(T, 'get_thread_history', {
      summary: 'Past states, newest first',
      params: [threadId, ...query(historyQuery, { limit: 'Default 10', before: 'Checkpoint id', ...select })],
      response: arrayOf(ref('ThreadState')),
    }),
    post: operation(T, 'get_thread_history_post', { summary: 'Past states, newest first', params: [threadId], body: ref('ThreadHistoryRequest'), response: arrayOf(ref('ThreadState')) }),
  },
  '/threads/{thread_id}/stream': {
    get: operation(T, 'join_thread_stream', {
      summary: "Join the stream of the thread's runs",
      params: [threadId, { name: 'Last-Event-ID', in: 'header', required: false, schema: str() }, ...query(joinStreamQuerySchema, { stream_mode: 'Modes to receive' })],
      stream: true,
    }),
  },
  // SDK 1.15+ thread streaming (`client.threads.stream()`), the streaming protocol of `@langchain/protocol`.
  '/threads/{thread_id}/commands': {
    post: operation(T, 'thread_protocol_command', {
      summary: 'Send a streaming-protocol command (run.start, input.respond, state.get)',
      description: 'Answers `{type: "success", id, result}` or `{type: "error", id, error, message}`. `run.start` creates the thread if it does not exist.',
      params: [threadId],
      body: ref('ThreadProtocolCommand'),
      response: object({ type: str('success or error'), id: int(), result: dict(), error: str(), message: str() }, ['type', 'id']),
    }),
  },
  '/threads/{thread_id}/stream/events': {
    post: operation(T, 'thread_protocol_events', {
      summary: "Stream the thread's runs as streaming-protocol events",
      description: 'Events carry a per-thread `seq` (also the SSE `id`); `since` or `Last-Event-ID` resumes after one, on any replica.',
      params: [threadId, { name: 'Last-Event-ID', in: 'header', required: false, schema: str() }],
      body: ref('ThreadProtocolStreamRequest'),
      stream: true,
    }),
  },
};
