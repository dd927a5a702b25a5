import type { Request, RequestHandler, Response } from 'express';
import { JsonBodyError, malformedRequest, requestContext } from '@platform/http-server';
import { JSON_RPC, isJsonRpcId, requestIdOf, rpcError, type JsonRpcRequest, type rpcResult } from '@platform/json-rpc';

// JSON-RPC 2.0 over HTTP as A2A and MCP use it (one request or notification per POST); the messages are @platform/json-rpc's.

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
  if (candidate['jsonrpc'] !== '2.0' || typeof candidate['method'] !== 'string' || ('id' in candidate && !isJsonRpcId(candidate['id']))) {
    return { error: rpcError(id, { code: JSON_RPC.INVALID_REQUEST, message: 'Invalid Request: "jsonrpc" must be "2.0", "method" a string, "id" a string, number or null' }) };
  }
  return { request: candidate as unknown as JsonRpcRequest };
}

/**
 * A declared route's `before` middleware: answers a body that is not one JSON-RPC request with the JSON-RPC error
 * it deserves before the route validates its path (a 422 would not be JSON-RPC); `jsonRpcRequestOf` hands the
 * handler the request it read.
 */
export const readJsonRpc: RequestHandler = (req, res, next) => {
  const read = readJsonRpcRequest(req);
  if ('error' in read) return sendJsonRpc(res, read.error);
  res.locals['jsonRpcRequest'] = read.request;
  next();
};

/** The request `readJsonRpc` read. */
export const jsonRpcRequestOf = (res: Response): JsonRpcRequest => res.locals['jsonRpcRequest'] as JsonRpcRequest;

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
