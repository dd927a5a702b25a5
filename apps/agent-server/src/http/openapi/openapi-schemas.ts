import { arrayOf, dict, int, object, oneOfEnum, ref, str, type Schema } from './openapi-helpers';

/** The component schemas of the Agent Server API. */
export const componentSchemas: Record<string, Schema> = {
  JsonRpcRequest: object(
    {
      jsonrpc: oneOfEnum(['2.0']),
      id: { oneOf: [str(), int(), { type: 'null' }], description: 'Absent on a notification (answered 202 without a body)' },
      method: str('A2A 1.0: SendMessage, GetTask, ListTasks, ... A2A 0.3: message/send, tasks/get, ... MCP: initialize, ping, tools/list, tools/call'),
      params: dict(),
    },
    ['jsonrpc', 'method'],
  ),
  JsonRpcResponse: object({ jsonrpc: str(), id: {}, result: {}, error: object({ code: int(), message: str(), data: {} }) }),
  AgentCard: object({
    name: str(),
    description: str(),
    supportedInterfaces: arrayOf(object({ url: str(), protocolBinding: str(), protocolVersion: str() })),
    protocolVersion: str('0.3 card only'),
    url: str('0.3 card only'),
    version: str(),
    capabilities: dict(),
    skills: arrayOf(dict()),
  }),
  ErrorResponse: object({ detail: str() }, ['detail']),
  ValidationError: object({ loc: arrayOf({ oneOf: [str(), int()] }), msg: str(), type: str() }, ['loc', 'msg', 'type']),
  HTTPValidationError: object({ detail: arrayOf(ref('ValidationError')) }),
};
