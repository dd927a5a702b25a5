import type { z } from 'zod';
import { unstorableTextIssues } from '@platform/errors';

// JSON-RPC 2.0 messages as A2A and MCP use them (requests, responses, errors, params checked with zod); the HTTP
// transport (one request or notification per POST) is the app's.

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  /** Absent on a notification, which gets no response. */
  id?: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export const JSON_RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** An error a method handler throws to answer with a JSON-RPC error object. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }

  toObject(): JsonRpcErrorObject {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }
}

export const rpcResult = (id: JsonRpcId, result: unknown) => ({ jsonrpc: '2.0' as const, id, result });
export const rpcError = (id: JsonRpcId, error: JsonRpcErrorObject) => ({ jsonrpc: '2.0' as const, id, error });

/** Whether a value may be a request's `id`. */
export const isJsonRpcId = (value: unknown): value is JsonRpcId => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The id of a body that may not be a valid request, to echo in an error response; null when there is none. */
export function requestIdOf(body: unknown): JsonRpcId {
  const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['id'] : undefined;
  return isJsonRpcId(id) ? id : null;
}

/**
 * A method's params checked against a schema, or an invalid-params error (-32602) naming every field that is
 * wrong: `Invalid params for tools/call: name: ...; arguments: ...`, the issues also as `data`.
 */
export function parseJsonRpcParams<S extends z.ZodType>(schema: S, params: unknown, method: string): z.infer<S> {
  const parsed = schema.safeParse(params);
  const issues = parsed.success
    ? unstorableTextIssues(parsed.data, 'body').map((issue) => ({ path: issue.loc.slice(1).map(String), message: issue.msg }))
    : parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
  if (parsed.success && issues.length === 0) return parsed.data;
  const text = issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'params'}: ${issue.message}`).join('; ');
  throw new JsonRpcError(JSON_RPC.INVALID_PARAMS, `Invalid params for ${method}: ${text}`, { issues });
}

/** The error object for anything a handler threw: its own JSON-RPC error, or an internal error naming the cause. */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof JsonRpcError) return err.toObject();
  return { code: JSON_RPC.INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) };
}
