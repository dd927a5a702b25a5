import type { Access } from '@platform/agent-server-auth';
import { JSON_RPC, JsonRpcError, parseJsonRpcParams } from '@platform/json-rpc';
import { A2A_ERRORS } from './a2a-errors';
import type { A2aTasks } from './a2a-tasks';
import { messageSendParamsSchema, taskIdParamsSchema, taskQueryParamsSchema } from './a2a.schemas';

export type A2aMethod = (tasks: A2aTasks, assistantId: string, params: unknown, access: Access) => Promise<unknown>;

// The A2A 0.3 methods answered with one JSON-RPC response (`message/stream` and `tasks/resubscribe` stream instead).
const A2A_METHODS: Record<string, A2aMethod> = {
  'message/send': async (tasks, assistantId, params, access) => {
    const assistant = await tasks.agent(assistantId, access);
    const parsed = parseJsonRpcParams(messageSendParamsSchema, params ?? {}, 'message/send');
    const { run, userMessage } = await tasks.start(assistant, parsed, access);
    const historyLength = parsed.configuration?.historyLength;
    // `blocking: false`: answer with the task as it begins; the client polls `tasks/get`.
    if (parsed.configuration?.blocking === false) return tasks.task(run, { userMessage, historyLength });
    return tasks.settle(run, userMessage, historyLength);
  },
  'tasks/get': async (tasks, assistantId, params, access) => {
    const assistant = await tasks.agent(assistantId, access);
    const { id, historyLength } = parseJsonRpcParams(taskQueryParamsSchema, params ?? {}, 'tasks/get');
    return tasks.task(await tasks.run(assistant, id, access), { historyLength });
  },
  'tasks/cancel': async (tasks, assistantId, params, access) => {
    const assistant = await tasks.agent(assistantId, access);
    const { id } = parseJsonRpcParams(taskIdParamsSchema, params ?? {}, 'tasks/cancel');
    return tasks.cancel(await tasks.run(assistant, id, access), access);
  },
  'agent/getAuthenticatedExtendedCard': () => {
    throw new JsonRpcError(A2A_ERRORS.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED, 'Authenticated Extended Card is not configured');
  },
};

const PUSH_NOTIFICATION_METHODS = new Set([
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
]);

/**
 * The A2A 0.3 method of a JSON-RPC request answered with one response; PushNotificationNotSupportedError for the
 * push notification methods, MethodNotFound for any other.
 */
export function a2aMethod(name: string): A2aMethod {
  if (PUSH_NOTIFICATION_METHODS.has(name)) throw new JsonRpcError(A2A_ERRORS.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported');
  const method = Object.hasOwn(A2A_METHODS, name) ? A2A_METHODS[name] : undefined;
  if (!method) throw new JsonRpcError(JSON_RPC.METHOD_NOT_FOUND, `Method not found: ${name}`);
  return method;
}
