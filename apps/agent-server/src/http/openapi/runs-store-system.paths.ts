import {
  cancelManyQuerySchema,
  cancelQuerySchema,
  joinQuerySchema,
  joinStreamQuerySchema,
  listRunsQuerySchema,
} from '@platform/agent-server-run-records';
import { parametersOf } from '@platform/openapi';
import { arrayOf, bool, dict, object, operation, pathParam, queryParam, ref, str, uuid } from './openapi-helpers';

const TR = 'Thread Runs';
const SR = 'Stateless Runs';
const A2A = 'A2A';
const MCP = 'MCP';
const SYS = 'System';

const threadId = pathParam('thread_id', 'Thread id', uuid());
const runId = pathParam('run_id', 'Run id', uuid());
const lastEventId = { name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume after this event (-1: from the start)', schema: str() };
const location = { 'Content-Location': str('/threads/{thread_id}/runs/{run_id}') };
// Query parameters from the zod schemas the routes parse them with; the descriptions are added here.
const query = (schema: Parameters<typeof parametersOf>[0], descriptions: Record<string, string> = {}) => parametersOf(schema, 'query', { descriptions });
const busy = { '409': { description: 'The thread is busy and multitask_strategy is reject' } };

export const threadRunsPaths = {
  '/threads/{thread_id}/runs': {
    post: operation(TR, 'create_run', { summary: 'Start a run in the background', params: [threadId], body: ref('RunCreateStateful'), response: ref('Run'), headers: location, errors: busy }),
    get: operation(TR, 'list_runs', {
      summary: "List a thread's runs, newest first",
      params: [threadId, ...query(listRunsQuerySchema, { status: 'Only runs in this status', select: 'Run fields to return' })],
      response: arrayOf(ref('Run')),
    }),
  },
  '/threads/{thread_id}/runs/stream': {
    post: operation(TR, 'stream_run', { summary: 'Start a run and stream its events', params: [threadId], body: ref('RunCreateStateful'), stream: true, headers: location, errors: busy }),
  },
  '/threads/{thread_id}/runs/wait': {
    post: operation(TR, 'wait_run', { summary: 'Start a run and wait for its final state', params: [threadId], body: ref('RunCreateStateful'), response: ref('RunWaitResult'), errors: busy }),
  },
  '/threads/{thread_id}/runs/{run_id}': {
    get: operation(TR, 'get_run', { summary: 'Get a run', params: [threadId, runId], response: ref('Run') }),
    delete: operation(TR, 'delete_run', { summary: 'Delete a finished run', params: [threadId, runId] }),
  },
  '/threads/{thread_id}/runs/{run_id}/join': {
    get: operation(TR, 'join_run', { summary: 'Wait for a run to finish; its final state values', params: [threadId, runId, ...query(joinQuerySchema, { cancel_on_disconnect: 'Cancel the run when this request closes' })], response: ref('RunWaitResult') }),
  },
  '/threads/{thread_id}/runs/{run_id}/stream': {
    get: operation(TR, 'join_run_stream', { summary: "Join a run's event stream", params: [threadId, runId, lastEventId, ...query(joinStreamQuerySchema, { cancel_on_disconnect: 'Cancel the run when this stream closes', stream_mode: 'Modes to receive' })], stream: true }),
  },
  '/threads/{thread_id}/runs/{run_id}/cancel': {
    post: operation(TR, 'cancel_run', {
      summary: 'Cancel a run',
      params: [threadId, runId, ...query(cancelQuerySchema, { wait: 'Wait for the run to stop (204) instead of 202', action: 'interrupt (keep progress) or rollback (delete the run)' })],
      status: 202,
    }),
  },
};

export const statelessRunsPaths = {
  '/runs': { post: operation(SR, 'create_stateless_run', { summary: 'Start a run on a temporary thread', body: ref('RunCreateStateless'), response: ref('Run') }) },
  '/runs/stream': { post: operation(SR, 'stream_stateless_run', { summary: 'Start a run without a thread and stream its events', body: ref('RunCreateStateless'), stream: true }) },
  '/runs/wait': { post: operation(SR, 'wait_stateless_run', { summary: 'Start a run without a thread and wait for its output', body: ref('RunCreateStateless'), response: ref('RunWaitResult') }) },
  '/runs/{run_id}/stream': {
    get: operation(SR, 'join_stateless_run_stream', { summary: "Join a stateless run's event stream", params: [runId, lastEventId], stream: true }),
  },
  '/runs/batch': { post: operation(SR, 'create_stateless_runs', { summary: 'Start several runs', body: arrayOf(ref('RunCreateStateless')), response: arrayOf(ref('Run')) }) },
  '/runs/cancel': { post: operation(SR, 'cancel_runs', { summary: 'Cancel runs by id, by thread or by status', body: ref('RunCancelRequest'), params: query(cancelManyQuerySchema, { action: 'interrupt or rollback' }) }) },
};

export const a2aPaths = {
  '/a2a/{assistant_id}': {
    post: operation(A2A, 'a2a_jsonrpc', {
      summary: 'Agent-to-Agent JSON-RPC 2.0, protocol 1.0 or 0.3 as the `A2A-Version` header says (none: 0.3)',
      description:
        'A2A 1.0: SendMessage, SendStreamingMessage and SubscribeToTask (SSE), GetTask, ListTasks, CancelTask. A2A 0.3: message/send, message/stream and tasks/resubscribe (SSE), tasks/get, tasks/cancel. Another version is error -32009. `contextId` is the thread id and `taskId` the run id.',
      params: [pathParam('assistant_id', 'Assistant id or graph id')],
      body: ref('JsonRpcRequest'),
      response: ref('JsonRpcResponse'),
    }),
  },
  '/.well-known/agent-card.json': {
    get: operation(A2A, 'a2a_agent_card', {
      summary: "An assistant's A2A agent card, in 1.0's shape when the `A2A-Version` header says 1.x, else in 0.3's (both list supportedInterfaces)",
      params: [queryParam('assistant_id', 'Assistant id or graph id')],
      response: ref('AgentCard'),
    }),
  },
};

export const mcpPaths = {
  '/mcp/': {
    post: operation(MCP, 'mcp', {
      summary: 'Model Context Protocol (Streamable HTTP, stateless): every assistant is a tool',
      body: ref('JsonRpcRequest'),
      response: ref('JsonRpcResponse'),
    }),
  },
};

export const systemPaths = {
  '/ok': { get: { ...operation(SYS, 'ok', { summary: 'Liveness', response: object({ ok: bool() }) }), security: [] } },
  '/ready': { get: { ...operation(SYS, 'ready', { summary: 'Readiness of the dependencies', response: object({ ready: bool(), checks: dict() }) }), security: [] } },
  '/metrics': { get: { ...operation(SYS, 'metrics', { summary: 'Prometheus metrics (text)', response: str() }), security: [] } },
  '/openapi.json': { get: { ...operation(SYS, 'openapi', { summary: 'This OpenAPI document', response: dict() }), security: [] } },
  '/docs': { get: { ...operation(SYS, 'docs', { summary: 'Interactive API reference (HTML)', response: str() }), security: [] } },
};
