import { A2A_ERRORS } from './a2a-errors';
import { JsonRpcError, type JsonRpcErrorObject } from '@platform/json-rpc';
import { A2A_VERSIONS } from './a2a-version';

/** A2A's own codes added in 1.0. */
export const A2A_V1_ERRORS = { VERSION_NOT_SUPPORTED: -32009 } as const;

const REASONS: Record<number, string> = {
  [A2A_ERRORS.TASK_NOT_FOUND]: 'TASK_NOT_FOUND',
  [A2A_ERRORS.TASK_NOT_CANCELABLE]: 'TASK_NOT_CANCELABLE',
  [A2A_ERRORS.PUSH_NOTIFICATION_NOT_SUPPORTED]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [A2A_ERRORS.UNSUPPORTED_OPERATION]: 'UNSUPPORTED_OPERATION',
  [A2A_ERRORS.CONTENT_TYPE_NOT_SUPPORTED]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [A2A_ERRORS.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED]: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  [A2A_V1_ERRORS.VERSION_NOT_SUPPORTED]: 'VERSION_NOT_SUPPORTED',
};

const metadataOf = (data: unknown): Record<string, string> | undefined => {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
};

/**
 * An error object as A2A 1.0 sends it: A2A's own errors carry a `google.rpc.ErrorInfo` (reason, domain, the
 * details as string metadata) in `data`; JSON-RPC's standard errors stay as they are.
 */
export function toV1Error(error: JsonRpcErrorObject): JsonRpcErrorObject {
  const reason = REASONS[error.code];
  if (!reason) return error;
  const metadata = metadataOf(error.data);
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org', ...(metadata ? { metadata } : {}) };
  return { code: error.code, message: error.message, data: [info] };
}

export const versionNotSupported = (requested: string) =>
  new JsonRpcError(
    A2A_V1_ERRORS.VERSION_NOT_SUPPORTED,
    `The requested A2A protocol version '${requested}' is not supported. Supported versions: ${A2A_VERSIONS.join(', ')}`,
    { requestedVersion: requested, supportedVersions: A2A_VERSIONS.join(',') },
  );
