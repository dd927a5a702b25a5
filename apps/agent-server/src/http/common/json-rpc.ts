import type { Request, Response } from 'express';
import type { z } from 'zod';
import { unstorableTextIssues } from '@platform/errors';
import { JsonBodyError, malformedRequest, requestContext } from '@platform/http-server';

/** JSON-RPC 2.0 as A2A and MCP use it over HTTP: one request (or notification) per POST. */

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

const isId = (value: unknown): value is JsonRpcId => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The id of a body that may not be a valid request, to echo in an error response; null when there is none. */
export function requestIdOf(body: unknown): JsonRpcId {
  const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['id'] : undefined;
  return isId(id) ? id : null;
}

/**
 * The request in a POST body, or the error response it deserves: a body that is not JSON (the JSON parser
 * leaves it unparsed) is a parse error, anything but a `{"jsonrpc": "2.0", "method": ...}` object an invalid
 * request. The id is echoed when it could be read.
 */
export function readJsonRpcRequest(req: Request): { request: JsonRpcRequest } | { error: ReturnType<typeof rpcError> } {
  const body: unknown = req.body;
  if (!req.is('application/json') || body === undefined) {
    return { error: rpcError(null, { code: JSON_RPC.PARSE_ERROR, message: 'Parse error: the body must be a JSON-RPC 2.0 request (Content-Type: application/json)' }) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { error: rpcError(null, { code: JSON_RPC.INVALID_REQUEST, message: 'Invalid Request: expected one JSON-RPC 2.0 request object' }) };
  }
  const candidate = body as Record<string, unknown>;
  const id = requestIdOf(candidate);
  if (candidate['jsonrpc'] !== '2.0' || typeof candidate['method'] !== 'string' || ('id' in candidate && !isId(candidate['id']))) {
    return { error: rpcError(id, { code: JSON_RPC.INVALID_REQUEST, message: 'Invalid Request: "jsonrpc" must be "2.0", "method" a string, "id" a string, number or null' }) };
  }
  return { request: candidate as unknown as JsonRpcRequest };
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

/** Sends one JSON-RPC response. JSON-RPC errors travel with HTTP 200, except a body that could not be read (400). */
export function sendJsonRpc(res: Response, message: ReturnType<typeof rpcResult> | ReturnType<typeof rpcError>): void {
  const unreadable = 'error' in message && (message.error.code === JSON_RPC.PARSE_ERROR || message.error.code === JSON_RPC.INVALID_REQUEST);
  res.status(unreadable ? 400 : 200).json(message);
}

/**
 * Error middleware for JSON-RPC paths: a request that could not be read (a body that is not JSON, undecodable or
 * over the limit, a malformed path) is answered as JSON-RPC wants (a parse error, HTTP 400 or the limit's 413/415),
 * not with the `{"detail"}` of the REST routes. Other errors pass on.
 */
export function jsonRpcParseErrors(isJsonRpcPath: (path: string) => boolean) {
  return (err: unknown, req: Request, res: Response, next: (err?: unknown) => void): void => {
    const malformed = malformedRequest(err);
    if (!malformed || !isJsonRpcPath(req.path)) return next(err);
    requestContext(res).logger.warn({ reason: malformed.message, path: req.originalUrl }, 'malformed JSON-RPC request refused');
    const status = malformed instanceof JsonBodyError ? 400 : (malformed.status ?? 400);
    const message = malformed instanceof JsonBodyError ? malformed.reason : malformed.message;
    res.status(status).json(rpcError(null, { code: JSON_RPC.PARSE_ERROR, message: `Parse error: ${message}` }));
  };
}
