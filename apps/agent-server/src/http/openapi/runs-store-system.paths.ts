import { bool, dict, object, operation, pathParam, queryParam, ref, str } from './openapi-helpers';

const A2A = 'A2A';
const MCP = 'MCP';
const SYS = 'System';

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
