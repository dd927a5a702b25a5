import { Router, type Response } from 'express';
import { z } from 'zod';
import type { AssistantRepository } from '@platform/agent-server-assistants';
import type { Access } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import type { ThreadRepository, ThreadStateService } from '@platform/agent-server-threads';
import { parseRequest, publicBaseUrlOf, requestContext } from '@platform/http-server';
import { accessOf } from '../common/deployment-auth.middleware';
import { A2A_ERRORS, toA2aError } from './a2a-errors';
import { streamA2aTask } from './a2a-stream';
import { jsonWhenDone } from '../common/run-responses';
import { a2aTasks, type A2aTasks } from './a2a-tasks';
import { messageSendParamsSchema, taskIdParamsSchema, taskQueryParamsSchema } from './a2a.schemas';
import { agentCardV03, agentCardV1 } from './a2a-v1-card';
import { toV1Error, versionNotSupported } from './a2a-v1-errors';
import { a2aV1Handler } from './a2a-v1.handler';
import { A2A_VERSION_HEADER, a2aVersionOf } from './a2a-version';
import { JSON_RPC, JsonRpcError, parseJsonRpcParams, readJsonRpcRequest, rpcError, rpcResult, sendJsonRpc, type JsonRpcRequest } from '../common/json-rpc';

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

type Method = (tasks: A2aTasks, assistantId: string, params: unknown, access: Access) => Promise<unknown>;

// Methods answered with one JSON-RPC response (`message/stream` and `tasks/resubscribe` stream instead).
const METHODS: Record<string, Method> = {
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
        const method = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined;
        if (PUSH_NOTIFICATION_METHODS.has(request.method)) {
          throw new JsonRpcError(A2A_ERRORS.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported');
        }
        if (!method) throw new JsonRpcError(JSON_RPC.METHOD_NOT_FOUND, `Method not found: ${request.method}`);
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
