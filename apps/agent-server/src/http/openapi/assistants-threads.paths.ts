import { joinStreamQuerySchema } from '@platform/agent-server-run-records';
import { parametersOf } from '@platform/openapi';
import { operation, pathParam, str, uuid } from './openapi-helpers';

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
};
