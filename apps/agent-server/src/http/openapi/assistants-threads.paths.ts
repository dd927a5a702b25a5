import { joinStreamQuerySchema } from '@platform/agent-server-run-records';
import { parametersOf } from '@platform/openapi';
import { dict, int, object, operation, pathParam, ref, str, uuid } from './openapi-helpers';

const T = 'Threads';

const threadId = pathParam('thread_id', 'Thread id', uuid());
// Query parameters from the zod schemas the routes parse them with; the descriptions are added here.
const query = (schema: Parameters<typeof parametersOf>[0], descriptions: Record<string, string> = {}) => parametersOf(schema, 'query', { descriptions });

// The thread routes the runs and thread-protocol routers serve (the threads router's own are declared).
export const threadsPaths = {
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
