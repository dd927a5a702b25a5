import { isPlatformError } from '@platform/errors';
import { JSON_RPC, JsonRpcError, toJsonRpcError, type JsonRpcErrorObject } from '@platform/json-rpc';

/** A2A's own JSON-RPC error codes (protocol 0.3.0). */
export const A2A_ERRORS = {
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED: -32007,
} as const;

export const taskNotFound = (taskId: string) => new JsonRpcError(A2A_ERRORS.TASK_NOT_FOUND, `Task not found: ${taskId}`, { taskId });

export const invalidParams = (message: string, data?: unknown) => new JsonRpcError(JSON_RPC.INVALID_PARAMS, `Invalid params: ${message}`, data);

/**
 * The JSON-RPC error for anything a method threw. Platform errors keep their message: bad input and missing
 * things the params refer to are invalid params, other faults internal errors.
 */
export function toA2aError(err: unknown): JsonRpcErrorObject & { internal: boolean } {
  if (err instanceof JsonRpcError) return { ...err.toObject(), internal: false };
  if (isPlatformError(err) && (err.code === 'input' || err.code === 'validation' || err.code === 'not_found')) {
    return { code: JSON_RPC.INVALID_PARAMS, message: `Invalid params: ${err.message}`, internal: false };
  }
  if (isPlatformError(err) && err.code !== 'internal') return { code: JSON_RPC.INTERNAL_ERROR, message: err.message, internal: false };
  return { ...toJsonRpcError(err), internal: true };
}
