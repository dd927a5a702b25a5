import type { Response } from 'express';
import type { RunService } from '@platform/agent-server-runs';
import type { ThreadRepository } from '@platform/agent-server-threads';
import { requestContext } from '@platform/http-server';
import {
  A2A_ERRORS,
  V1_METHODS,
  V1_PUSH_NOTIFICATION_METHODS,
  V1_STREAM_METHODS,
  startV1Task,
  subscribableRun,
  toA2aError,
  toV1Error,
  toV1StreamResponse,
  type A2aTasks,
  type A2aV1Context,
} from '@platform/agent-server-a2a';
import { JSON_RPC, JsonRpcError, rpcError, rpcResult, type JsonRpcRequest } from '@platform/json-rpc';
import { accessOf } from '../common/deployment-auth.middleware';
import { streamA2aTask } from './a2a-stream';
import { jsonWhenDone } from '../common/run-responses';

export interface A2aV1HandlerDeps {
  tasks: A2aTasks;
  runs: RunService;
  threads: ThreadRepository;
  heartbeatMs: number;
  keepAliveMs: number;
}

/**
 * Answers one A2A 1.0 JSON-RPC request for an assistant (the request said `A2A-Version: 1.x`): `SendMessage`,
 * `SendStreamingMessage` and `SubscribeToTask` (SSE, closed once the task ends), `GetTask`, `CancelTask`,
 * `ListTasks`; `GetExtendedAgentCard` and the push notification methods answer with their A2A errors. Tasks are
 * the 0.3 implementation's, carried in 1.0's shapes.
 */
export function a2aV1Handler(deps: A2aV1HandlerDeps) {
  const contextOf = (res: Response): A2aV1Context => ({ tasks: deps.tasks, runs: deps.runs, access: accessOf(res) });

  const stream = (res: Response, request: JsonRpcRequest, assistantId: string, ctx: A2aV1Context) =>
    streamA2aTask(res, {
      requestId: request.id ?? null,
      heartbeatMs: deps.heartbeatMs,
      logger: requestContext(res).logger,
      tasks: deps.tasks,
      runs: deps.runs,
      threads: deps.threads,
      encodeEvent: toV1StreamResponse,
      encodeError: toV1Error,
      begin: async () => {
        if (request.method === 'SubscribeToTask') return { run: await subscribableRun(ctx, assistantId, request.params) };
        const { run, userMessage, configuration } = await startV1Task(ctx, assistantId, request.params, request.method);
        return { run, userMessage, historyLength: configuration?.historyLength };
      },
    });

  return async (res: Response, request: JsonRpcRequest, assistantId: string): Promise<void> => {
    const ctx = contextOf(res);
    if (V1_STREAM_METHODS.has(request.method)) return stream(res, request, assistantId, ctx);
    const id = request.id ?? null;
    const answer = (async () => {
      try {
        if (V1_PUSH_NOTIFICATION_METHODS.has(request.method)) {
          throw new JsonRpcError(A2A_ERRORS.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported');
        }
        const method = Object.hasOwn(V1_METHODS, request.method) ? V1_METHODS[request.method] : undefined;
        if (!method) throw new JsonRpcError(JSON_RPC.METHOD_NOT_FOUND, `Method not found: ${request.method}`);
        return rpcResult(id, await method(ctx, assistantId, request.params));
      } catch (err) {
        const { internal, ...error } = toA2aError(err);
        if (internal) requestContext(res).logger.error({ err, method: request.method }, 'A2A method failed');
        return rpcError(id, toV1Error(error));
      }
    })();
    // A notification (no id) gets no response body.
    if (request.id === undefined) {
      await answer;
      res.status(204).end();
      return;
    }
    await jsonWhenDone(res, answer.then((message) => JSON.stringify(message)), deps.keepAliveMs);
  };
}
