import { Router, type Response } from 'express';
import { z } from 'zod';
import type { AssistantRepository } from '@platform/agent-server-assistants';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import type { ThreadRepository, ThreadStateService } from '@platform/agent-server-threads';
import { parseRequest, publicBaseUrlOf, requestContext } from '@platform/http-server';
import {
  A2A_VERSION_HEADER,
  a2aMethod,
  a2aTasks,
  a2aVersionOf,
  agentCardV03,
  agentCardV1,
  messageSendParamsSchema,
  taskIdParamsSchema,
  toA2aError,
  toV1Error,
  versionNotSupported,
} from '@platform/agent-server-a2a';
import { parseJsonRpcParams, rpcError, rpcResult, type JsonRpcRequest } from '@platform/json-rpc';
import { accessOf } from '../common/deployment-auth.middleware';
import { readJsonRpcRequest, sendJsonRpc } from '../common/json-rpc';
import { streamA2aTask } from './a2a-stream';
import { jsonWhenDone } from '../common/run-responses';
import { a2aV1Handler } from './a2a-v1.handler';

export interface A2aRoutesDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  runs: RunService;
  threads: { threads: ThreadRepository; state: ThreadStateService };
  /** This server's version (the agent card's `version`). */
  version: string;
  /** A `: heartbeat` comment on `message/stream` after this long without an event (default 15 s). */
  sseHeartbeatMs?: number;
  /** A newline after this long while a `message/send` has no answer yet (default 30 s), as runs' `/wait` does. */
  waitKeepAliveMs?: number;
}

// The card's query and the endpoint's path name the agent alike.
const agentRef = z.object({ assistant_id: z.string().min(1) });

/**
 * A2A (JSON-RPC transport) for every assistant: `POST /a2a/{assistant_id}` takes protocol 0.3.0 (`message/send`,
 * `message/stream` (SSE), `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) and, from requests with an
 * `A2A-Version: 1.x` header, protocol 1.0 (a2a-v1.handler.ts); `GET /.well-known/agent-card.json?assistant_id=`
 * describes the agent in the shape of the version asked for (no header: 0.3, listing both interfaces). A task is a
 * run, its context the run's thread.
 */
export function a2aRoutes(deps: A2aRoutesDeps): Router {
  const router = Router();
  const tasks = a2aTasks({ assistants: deps.assistants, registry: deps.registry, runs: deps.runs, threads: deps.threads.threads });
  const heartbeatMs = deps.sseHeartbeatMs ?? 15_000;
  const keepAliveMs = deps.waitKeepAliveMs ?? 30_000;
  const v1 = a2aV1Handler({ tasks, runs: deps.runs, threads: deps.threads.threads, heartbeatMs, keepAliveMs });

  router.get('/.well-known/agent-card.json', async (req, res) => {
    const { assistant_id } = parseRequest(agentRef, req.query, 'query');
    const assistant = await deps.assistants.resolve(assistant_id, await accessOf(res).authorize('assistants:read', { assistant_id }));
    const options = { baseUrl: publicBaseUrlOf(req), version: deps.version, graphDescription: deps.registry.description(assistant.graph_id) };
    res.vary(A2A_VERSION_HEADER);
    res.json(a2aVersionOf(req.get(A2A_VERSION_HEADER)) === '0.3' ? agentCardV03(assistant, options) : agentCardV1(assistant, options));
  });

  const stream = (res: Response, request: JsonRpcRequest, assistantId: string) =>
    streamA2aTask(res, {
      requestId: request.id ?? null,
      heartbeatMs,
      logger: requestContext(res).logger,
      tasks,
      runs: deps.runs,
      threads: deps.threads.threads,
      begin: async () => {
        const access = accessOf(res);
        const assistant = await tasks.agent(assistantId, access);
        if (request.method === 'message/stream') {
          const params = parseJsonRpcParams(messageSendParamsSchema, request.params ?? {}, request.method);
          return { ...(await tasks.start(assistant, params, access)), historyLength: params.configuration?.historyLength };
        }
        return { run: await tasks.run(assistant, parseJsonRpcParams(taskIdParamsSchema, request.params ?? {}, request.method).id, access) };
      },
    });

  router.post('/a2a/:assistant_id', async (req, res) => {
    const read = readJsonRpcRequest(req);
    if ('error' in read) return sendJsonRpc(res, read.error);
    const { request } = read;
    const { assistant_id } = parseRequest(agentRef, req.params, 'path');
    const version = a2aVersionOf(req.get(A2A_VERSION_HEADER));
    if (version === undefined) return sendJsonRpc(res, rpcError(request.id ?? null, toV1Error(versionNotSupported(req.get(A2A_VERSION_HEADER) ?? '').toObject())));
    if (version === '1.0') return v1(res, request, assistant_id);
    if (request.method === 'message/stream' || request.method === 'tasks/resubscribe') return stream(res, request, assistant_id);

    const id = request.id ?? null;
    const answer = (async () => {
      try {
        const method = a2aMethod(request.method);
        return rpcResult(id, await method(tasks, assistant_id, request.params, accessOf(res)));
      } catch (err) {
        const { internal, ...error } = toA2aError(err);
        if (internal) requestContext(res).logger.error({ err, method: request.method }, 'A2A method failed');
        return rpcError(id, error);
      }
    })();
    // A notification (no id) gets no response body.
    if (request.id === undefined) {
      await answer;
      return res.status(204).end();
    }
    // A blocking message/send sends newlines meanwhile (JSON allows them), so proxies keep the connection open.
    await jsonWhenDone(res, answer.then((message) => JSON.stringify(message)), keepAliveMs);
  });

  return router;
}
