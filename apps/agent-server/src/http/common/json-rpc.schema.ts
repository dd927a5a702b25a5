import { z } from 'zod';
import type { SameShape } from '@platform/openapi';
import type { JsonRpcErrorObject, JsonRpcRequest, rpcError, rpcResult } from '@platform/json-rpc';

// What the JSON-RPC endpoints (A2A, MCP) document: the body they read themselves (`readJsonRpcRequest`, which
// answers a JSON-RPC error rather than a 422) and the response they send.

const id = z.union([z.string(), z.number(), z.null()]);

/** One JSON-RPC 2.0 request (or, without `id`, a notification). */
export const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: id.optional().describe('Absent on a notification (answered without a body)'),
  method: z.string(),
  params: z.unknown().optional(),
});

const errorObject = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

/** The response to one request: a result or an error (HTTP 200; 400 when the request could not be read). */
export const jsonRpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id, result: z.unknown() }),
  z.object({ jsonrpc: z.literal('2.0'), id, error: errorObject }),
]);

const _request: SameShape<z.output<typeof jsonRpcRequest>, JsonRpcRequest> = true;
const _error: SameShape<z.output<typeof errorObject>, JsonRpcErrorObject> = true;
const _response: SameShape<z.output<typeof jsonRpcResponse>, ReturnType<typeof rpcResult> | ReturnType<typeof rpcError>> = true;

/** The documented request body of a JSON-RPC endpoint. */
export const jsonRpcBody = (description: string) => ({ contentType: 'application/json', description, schema: jsonRpcRequest });

export const jsonRpcAnswer = (description: string) => ({ description, schema: jsonRpcResponse });
export const unreadable = { 400: { description: 'The body is not one JSON-RPC 2.0 request (a JSON-RPC parse or invalid-request error)', schema: jsonRpcResponse } };
