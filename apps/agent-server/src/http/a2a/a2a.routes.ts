import type { Response } from 'express';
import type { AssistantRepository } from '@platform/agent-server-assistants';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import type { ThreadRepository, ThreadStateService } from '@platform/agent-server-threads';
import { publicBaseUrlOf, requestContext } from '@platform/http-server';
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
import { route, type DeclaredRoute } from '@platform/openapi';
import { accessOf } from '../common/deployment-auth.middleware';
import { jsonRpcRequestOf, readJsonRpc, sendJsonRpc } from '../common/json-rpc';
import { jsonRpcAnswer, jsonRpcBody, unreadable } from '../common/json-rpc.schema';
import { notFound, operationsOf } from '../common/responses.schema';
import { streamA2aTask } from './a2a-stream';
import { jsonWhenDone } from '../common/run-responses';
import { a2aV1Handler } from './a2a-v1.handler';
import { a2aVersionHeader, agentCardResponse, agentRef } from './a2a.schemas';

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

const op = operationsOf('A2A');

/**
 * A2A (JSON-RPC transport) for every assistant: `POST /a2a/{assistant_id}` takes protocol 0.3.0 (`message/send`,
 * `message/stream` (SSE), `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) and, from requests with an
 * `A2A-Version: 1.x` header, protocol 1.0 (a2a-v1.handler.ts); `GET /.well-known/agent-card.json?assistant_id=`
 * describes the agent in the shape of the version asked for (no header: 0.3, listing both interfaces). A task is a
 * run, its context the run's thread.
 */
export function a2aRoutes(deps: A2aRoutesDeps): DeclaredRoute[] {
  const tasks = a2aTasks({ assistants: deps.assistants, registry: deps.registry, runs: deps.runs, threads: deps.threads.threads });
  const heartbeatMs = deps.sseHeartbeatMs ?? 15_000;
  const keepAliveMs = deps.waitKeepAliveMs ?? 30_000;
  const v1 = a2aV1Handler({ tasks, runs: deps.runs, threads: deps.threads.threads, heartbeatMs, keepAliveMs });

  const card = route(
    {
      ...op(
        'get',
        '/.well-known/agent-card.json',
        'a2a_agent_card',
        "An assistant's A2A agent card, in 1.0's shape when the `A2A-Version` header says 1.x, else in 0.3's (both list supportedInterfaces)",
      ),
      query: agentRef,
      headers: a2aVersionHeader,
      responses: { 200: { description: 'The agent card', schema: agentCardResponse }, 404: notFound },
    },
    async ({ query: { assistant_id } }, req, res) => {
      const assistant = await deps.assistants.resolve(assistant_id, await accessOf(res).authorize('assistants:read', { assistant_id }));
      const options = { baseUrl: publicBaseUrlOf(req), version: deps.version, graphDescription: deps.registry.description(assistant.graph_id) };
      res.vary(A2A_VERSION_HEADER);
      res.json(a2aVersionOf(req.get(A2A_VERSION_HEADER)) === '0.3' ? agentCardV03(assistant, options) : agentCardV1(assistant, options));
    },
  );

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

  const jsonRpc = route(
    {
      ...op('post', '/a2a/:assistant_id', 'a2a_jsonrpc', 'Agent-to-Agent JSON-RPC 2.0, protocol 1.0 or 0.3 as the `A2A-Version` header says (none: 0.3)'),
      description:
        'A2A 1.0: SendMessage, SendStreamingMessage and SubscribeToTask (SSE), GetTask, ListTasks, CancelTask. A2A 0.3: message/send, message/stream and tasks/resubscribe (SSE), tasks/get, tasks/cancel. Another version is error -32009. `contextId` is the thread id and `taskId` the run id.',
      params: agentRef,
      headers: a2aVersionHeader,
      readsBody: jsonRpcBody('A2A 1.0: SendMessage, GetTask, ListTasks, ... A2A 0.3: message/send, tasks/get, ...'),
      // An unreadable body is a JSON-RPC error, whatever the path.
      before: [readJsonRpc],
      responses: {
        200: jsonRpcAnswer('The JSON-RPC response (a JSON-RPC error too); the streaming methods answer `text/event-stream` instead, one JSON-RPC response an event'),
        204: { description: 'A notification (no id): no response' },
        ...unreadable,
      },
    },
    async ({ params: { assistant_id } }, req, res) => {
      const request = jsonRpcRequestOf(res);
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
    },
  );

  return [card, jsonRpc];
}
