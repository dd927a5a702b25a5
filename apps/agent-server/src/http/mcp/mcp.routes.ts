import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AssistantRepository } from '@platform/agent-server-assistants';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import type { RunRecord } from '@platform/agent-server-run-records';
import { isPlatformError } from '@platform/errors';
import { requestContext } from '@platform/http-server';
import {
  JSON_RPC,
  JsonRpcError,
  parseJsonRpcParams,
  requestIdOf,
  rpcError,
  rpcResult,
  toJsonRpcError,
  type JsonRpcErrorObject,
  type JsonRpcRequest,
} from '@platform/json-rpc';
import {
  callTool,
  callToolParams,
  initializeParams,
  listTools,
  listToolsParams,
  negotiateProtocolVersion,
  unsupportedVersionHeader,
} from '@platform/agent-server-mcp';
import { route, type DeclaredRoute } from '@platform/openapi';
import { readJsonRpcRequest, sendJsonRpc } from '../common/json-rpc';
import { jsonRpcAnswer, jsonRpcBody, unreadable } from '../common/json-rpc.schema';
import { operationsOf } from '../common/responses.schema';
import { jsonWhenDone } from '../common/run-responses';
import { accessOf } from '../common/deployment-auth.middleware';

export interface McpRoutesDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  runs: RunService;
  /** This server's version (`serverInfo.version`). */
  version: string;
  /** Tools per `tools/list` page (default 100). */
  pageSize?: number;
  /** A newline after this long while a call has no answer yet (default 30 s), as runs' `/wait` does. */
  waitKeepAliveMs?: number;
}

const SERVER_NAME = 'langgraph-agent-server';

// A client answering a server request: we never send any, but the transport says to accept them with 202.
const isClientResponse = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && !('method' in body) && ('result' in body || 'error' in body) && 'id' in body;

const op = operationsOf('MCP');

/**
 * MCP over Streamable HTTP, stateless, at `/mcp` (and `/mcp/`): every assistant is a tool, `tools/call` runs it
 * without a thread and answers with its output. One JSON-RPC message per POST, answered with JSON; no session,
 * no server-to-client stream (GET and DELETE are 405: `mcpOtherMethods`).
 */
export function mcpRoutes(deps: McpRoutesDeps): DeclaredRoute[] {
  const pageSize = Math.max(1, deps.pageSize ?? 100);
  const keepAliveMs = deps.waitKeepAliveMs ?? 30_000;

  const dispatch = async (request: JsonRpcRequest, res: Response): Promise<unknown> => {
    switch (request.method) {
      case 'initialize': {
        const { protocolVersion } = parseJsonRpcParams(initializeParams, request.params, request.method);
        return {
          protocolVersion: negotiateProtocolVersion(protocolVersion),
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: SERVER_NAME, version: deps.version },
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return listTools(deps, parseJsonRpcParams(listToolsParams, request.params, request.method)?.cursor, pageSize, accessOf(res));
      case 'tools/call': {
        const call = parseJsonRpcParams(callToolParams, request.params, request.method);
        // A client that gives up closes the connection: stop the run rather than finish it for nobody, also
        // when it left while the run was being created.
        let run: RunRecord | undefined;
        let gone = false;
        const cancel = (runId: string) => void deps.runs.cancel(null, runId, { action: 'interrupt' }).catch(() => undefined);
        res.on('close', () => {
          if (res.writableFinished) return;
          gone = true;
          if (run) cancel(run.run_id);
        });
        return callTool(
          deps,
          call,
          (created) => {
            run = created;
            if (gone) cancel(created.run_id);
          },
          accessOf(res),
        );
      }
      default:
        throw new JsonRpcError(JSON_RPC.METHOD_NOT_FOUND, `Method not found: ${request.method}`);
    }
  };

  // Our own and caller-side errors say what went wrong; anything else is logged and stays vague.
  const errorObject = (err: unknown, req: Request, res: Response): JsonRpcErrorObject => {
    if (err instanceof JsonRpcError || (isPlatformError(err) && err.code !== 'internal')) return toJsonRpcError(err);
    requestContext(res).logger.error({ err, method: (req.body as { method?: unknown }).method }, 'MCP request failed');
    return { code: JSON_RPC.INTERNAL_ERROR, message: 'Internal error' };
  };

  // `/mcp/` as the reference documents it; express serves `/mcp` on it too (trailing slash optional).
  const mcp = route(
    {
      ...op('post', '/mcp/', 'mcp', 'Model Context Protocol (Streamable HTTP, stateless): every assistant is a tool'),
      headers: { 'MCP-Protocol-Version': { description: 'The protocol version the client negotiated (an unsupported one: 400)', schema: z.string() } },
      readsBody: jsonRpcBody('MCP: initialize, ping, tools/list, tools/call; a notification or a response to the server'),
      responses: {
        200: jsonRpcAnswer('The JSON-RPC response (a JSON-RPC error too); newlines before it while a tool call runs'),
        202: { description: 'A notification, or a response to the server: accepted, no body' },
        ...unreadable,
      },
    },
    async (_input, req, res) => {
      const unsupported = unsupportedVersionHeader(req.get('mcp-protocol-version'));
      if (unsupported) {
        res.status(400).json(rpcError(requestIdOf(req.body), { code: JSON_RPC.INVALID_REQUEST, message: unsupported }));
        return;
      }
      if (isClientResponse(req.body)) {
        res.status(202).end();
        return;
      }
      const read = readJsonRpcRequest(req);
      if ('error' in read) return sendJsonRpc(res, read.error);
      const { request } = read;
      // A notification gets no answer; stateless, we have nothing to do on any (initialized, cancelled, ...).
      if (request.id === undefined) {
        res.status(202).end();
        return;
      }
      if (request.id === null) {
        return sendJsonRpc(res, rpcError(null, { code: JSON_RPC.INVALID_REQUEST, message: 'Invalid Request: an MCP request id must be a string or a number, not null' }));
      }
      const id = request.id;
      const answer = dispatch(request, res).then(
        (result) => JSON.stringify(rpcResult(id, result)),
        (err: unknown) => JSON.stringify(rpcError(id, errorObject(err, req, res))),
      );
      // A long tool call sends newlines meanwhile (JSON allows them), so proxies keep the connection open.
      await jsonWhenDone(res, answer, keepAliveMs);
    },
  );

  return [mcp];
}

/** `/mcp` answers any method but POST with 405: stateless, it has no stream to open (GET) and no session to end (DELETE). */
export function mcpOtherMethods(): Router {
  const router = Router();
  router.all('/mcp', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(rpcError(null, { code: JSON_RPC.INVALID_REQUEST, message: 'Method Not Allowed: this stateless MCP endpoint takes POST only (no SSE stream, no sessions)' }));
  });
  return router;
}
