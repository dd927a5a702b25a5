import type { Response } from 'express';
import type { RunService } from '@platform/agent-server-runs';
import type { RunRecord, StoredEvent } from '@platform/agent-server-run-records';
import type { ThreadRepository } from '@platform/agent-server-threads';
import type { Logger } from '@platform/logging';
import {
  isAi,
  messagesOf,
  textOf,
  toA2aError,
  type A2aMessage,
  type A2aStreamEvent,
  type A2aTaskStatus,
  type A2aTasks,
  type StateMessage,
} from '@platform/agent-server-a2a';
import { rpcError, rpcResult, type JsonRpcErrorObject, type JsonRpcId } from '@platform/json-rpc';
import { SseWriter } from '../common/sse';

export interface A2aStreamOptions {
  requestId: JsonRpcId;
  heartbeatMs: number;
  logger: Logger;
  tasks: A2aTasks;
  runs: RunService;
  threads: ThreadRepository;
  /** Finds or starts the run to follow; what it throws is answered as an error event. */
  begin: () => Promise<{ run: RunRecord; userMessage?: A2aMessage; historyLength?: number }>;
  /** How events and errors go on the wire (default: as A2A 0.3 has them). */
  encodeEvent?: (event: A2aStreamEvent) => unknown;
  encodeError?: (error: JsonRpcErrorObject) => JsonRpcErrorObject;
}

const idsOf = (values: unknown) => new Set(messagesOf(values).flatMap((m) => (typeof m.id === 'string' ? [m.id] : [])));

/** What an AI message the graph just produced tells the client while the task works. */
function progressText(message: StateMessage): string | undefined {
  const text = textOf(message.content);
  if (text.trim() !== '') return text;
  const tools = (message.tool_calls ?? []).map((call) => call.name).filter((name): name is string => typeof name === 'string');
  return tools.length > 0 ? `Calling ${tools.join(', ')}` : undefined;
}

/**
 * `message/stream` (and `tasks/resubscribe`) as SSE, each event's data one JSON-RPC response: the task as it
 * begins, a `working` status when the run starts and for every AI message it writes, then the reply artifact and
 * the final status (`final: true`). Events come from the run's own stream as they happen. The stream opens first,
 * so that errors reach the client as error events (the SDK reads nothing else from a stream request).
 */
export async function streamA2aTask(res: Response, options: A2aStreamOptions): Promise<void> {
  const sse = new SseWriter(res, options.heartbeatMs);
  const { encodeEvent = (event) => event, encodeError = (error) => error } = options;
  const send = (result: A2aStreamEvent) => sse.send({ event: 'message', data: JSON.stringify(rpcResult(options.requestId, encodeEvent(result))) });
  let closeSubscription: (() => void) | undefined;
  res.on('close', () => closeSubscription?.());
  sse.open();
  try {
    const { run, userMessage, historyLength } = await options.begin();
    const { run_id: taskId, thread_id: contextId } = run;
    // Messages the thread held before this run are history, not progress.
    const seen = idsOf((await options.threads.find(contextId))?.values);
    const subscription = await options.runs.subscribe(taskId, -1);
    closeSubscription = () => subscription.close();
    if (sse.isClosed) subscription.close();

    const status = (state: A2aTaskStatus['state'], message?: A2aMessage): A2aStreamEvent => ({
      kind: 'status-update',
      taskId,
      contextId,
      status: { state, ...(message ? { message } : {}), timestamp: new Date().toISOString() },
      final: false,
    });
    const agentText = (messageId: string, text: string): A2aMessage => ({ kind: 'message', messageId, role: 'agent', parts: [{ kind: 'text', text }], contextId, taskId });

    await send(await options.tasks.task(run, { userMessage, historyLength }));
    let working = run.status === 'running';
    for await (const event of subscription as AsyncIterable<StoredEvent>) {
      if (!working && event.event !== 'error') {
        working = true;
        await send(status('working'));
      }
      if (event.event !== 'values') continue;
      for (const message of messagesOf(JSON.parse(event.data))) {
        if (typeof message.id !== 'string' || seen.has(message.id)) continue;
        seen.add(message.id);
        const text = isAi(message) ? progressText(message) : undefined;
        if (text !== undefined) await send(status('working', agentText(message.id, text)));
      }
    }
    if (sse.isClosed) return;

    const final = await options.tasks.task(await options.runs.getById(taskId), { userMessage, historyLength });
    for (const artifact of final.artifacts ?? []) await send({ kind: 'artifact-update', taskId, contextId, artifact, append: false, lastChunk: true });
    await send({ kind: 'status-update', taskId, contextId, status: final.status, final: true });
  } catch (err) {
    const error = toA2aError(err);
    if (error.internal) options.logger.error({ err }, 'A2A stream failed');
    const { internal: _internal, ...body } = error;
    await sse.send({ event: 'error', data: JSON.stringify(rpcError(options.requestId, encodeError(body))) });
  } finally {
    closeSubscription?.();
    sse.end();
  }
}
