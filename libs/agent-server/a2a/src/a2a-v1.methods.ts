import type { Assistant } from '@platform/agent-server-assistants';
import type { Access } from '@platform/agent-server-auth';
import type { RunService } from '@platform/agent-server-runs';
import type { RunRecord, RunSearchCursor, RunSearchQuery } from '@platform/agent-server-run-records';
import { isUuid } from '@platform/ids';
import { A2A_ERRORS, invalidParams } from './a2a-errors';
import { isTerminal } from './a2a-task';
import type { A2aTasks } from './a2a-tasks';
import type { MessageSendParams } from './a2a.schemas';
import type { A2aTaskState } from './a2a.types';
import { fromV1Message, fromV1State, toV1Task } from './a2a-v1.mapping';
import {
  v1GetTaskSchema,
  v1ListTasksSchema,
  v1SendMessageSchema,
  v1TaskIdSchema,
  type V1ListTasksParams,
  type V1SendMessageParams,
} from './a2a-v1.schemas';
import type { A2aV1ListTasksResponse, A2aV1StreamResponse, A2aV1Task } from './a2a-v1.types';
import { JsonRpcError, parseJsonRpcParams } from '@platform/json-rpc';

export interface A2aV1Context {
  tasks: A2aTasks;
  runs: RunService;
  /** What the request may do under the deployment's auth (as for the 0.3 methods and the REST routes). */
  access: Access;
}

type V1Method = (ctx: A2aV1Context, assistantId: string, params: unknown) => Promise<unknown>;

const DEFAULT_LIST_TASKS_PAGE = 50;

/** A 1.0 `SendMessageRequest` as the 0.3 params the task code takes (`returnImmediately` is 0.3's `blocking: false`). */
export function toSendParams(params: V1SendMessageParams): MessageSendParams {
  const { message, configuration, metadata } = params;
  if (configuration?.taskPushNotificationConfig) {
    throw new JsonRpcError(A2A_ERRORS.PUSH_NOTIFICATION_NOT_SUPPORTED, 'Push notifications are not supported');
  }
  return {
    message: fromV1Message(message) as MessageSendParams['message'],
    configuration: {
      acceptedOutputModes: configuration?.acceptedOutputModes,
      historyLength: configuration?.historyLength,
      blocking: !(configuration?.returnImmediately ?? false),
    },
    ...(metadata ? { metadata } : {}),
  };
}

const parseSendMessage = (params: unknown, method: string) => toSendParams(parseJsonRpcParams(v1SendMessageSchema, params ?? {}, method));

/** The run of a task that has not ended (it may wait for input); UnsupportedOperationError for one that did. */
async function openRun(ctx: A2aV1Context, assistant: Assistant, taskId: string, doing: string): Promise<RunRecord> {
  const run = await ctx.tasks.run(assistant, taskId, ctx.access);
  const state = (await ctx.tasks.task(run, { historyLength: 0 })).status.state;
  if (isTerminal(state)) {
    throw new JsonRpcError(A2A_ERRORS.UNSUPPORTED_OPERATION, `Task ${run.run_id} is in a terminal state (${state}): cannot ${doing}`, { taskId: run.run_id });
  }
  return run;
}

/** The task a `SubscribeToTask` follows. */
export async function subscribableRun(ctx: A2aV1Context, assistantId: string, params: unknown): Promise<RunRecord> {
  const assistant = await ctx.tasks.agent(assistantId, ctx.access);
  return openRun(ctx, assistant, parseJsonRpcParams(v1TaskIdSchema, params ?? {}, 'SubscribeToTask').id, 'subscribe to it');
}

/**
 * Starts the task a `SendMessage` or `SendStreamingMessage` asks for. In 1.0 a task that ended takes no more
 * messages (0.3 started a new task on its context); a new task of the same context is sent without `taskId`.
 */
export async function startV1Task(ctx: A2aV1Context, assistantId: string, params: unknown, method: string) {
  const assistant = await ctx.tasks.agent(assistantId, ctx.access);
  const parsed = parseSendMessage(params, method);
  if (parsed.message.taskId !== undefined) await openRun(ctx, assistant, parsed.message.taskId, 'send it a message');
  return { ...(await ctx.tasks.start(assistant, parsed, ctx.access)), configuration: parsed.configuration };
}

// Which runs a task state is: run statuses, and for `success`, whether the run left its thread waiting for input.
function searchFor(state: A2aTaskState): Pick<RunSearchQuery, 'statuses' | 'waitingForInput'> | undefined {
  switch (state) {
    case 'submitted':
      return { statuses: ['pending'] };
    case 'working':
      return { statuses: ['running'] };
    case 'completed':
      return { statuses: ['success'], waitingForInput: false };
    case 'input-required':
      return { statuses: ['success'], waitingForInput: true };
    case 'canceled':
      return { statuses: ['interrupted'] };
    case 'failed':
      return { statuses: ['error', 'timeout'] };
    default:
      // This server never rejects a task or asks for authentication mid-task.
      return undefined;
  }
}

const encodeToken = (cursor: RunSearchCursor) => Buffer.from(`${cursor.changedUs},${cursor.runId}`).toString('base64url');

function decodeToken(token: string): RunSearchCursor {
  const [changedUs, runId, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(',');
  if (rest.length > 0 || !/^\d{1,19}$/.test(changedUs ?? '') || !isUuid(runId ?? '')) throw invalidParams('pageToken is not a token this server issued');
  return { changedUs, runId };
}

/** `ListTasks`: this agent's tasks, most recently updated first, a page at a time. */
async function listTasks(ctx: A2aV1Context, assistantId: string, params: V1ListTasksParams): Promise<A2aV1ListTasksResponse> {
  const assistant = await ctx.tasks.agent(assistantId, ctx.access);
  const pageSize = params.pageSize ?? DEFAULT_LIST_TASKS_PAGE;
  const empty = { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
  const state = params.status && params.status !== 'TASK_STATE_UNSPECIFIED' ? fromV1State(params.status) : undefined;
  const filter = state ? searchFor(state) : {};
  // A context is a thread, whose id is a UUID: another id names no context.
  if (!filter || (params.contextId !== undefined && !isUuid(params.contextId))) return empty;
  const threadId = params.contextId?.toLowerCase();
  const page = await ctx.runs.search(
    {
      assistantId: assistant.assistant_id,
      threadId,
      ...filter,
      changedAfter: params.statusTimestampAfter ? new Date(params.statusTimestampAfter) : undefined,
      limit: pageSize,
      after: params.pageToken ? decodeToken(params.pageToken) : undefined,
    },
    await ctx.access.authorize('threads:read', { thread_id: threadId }),
  );
  const tasks = await Promise.all(page.runs.map((run) => ctx.tasks.task(run, { historyLength: params.historyLength })));
  return {
    tasks: tasks.map((task) => toV1Task(task, { includeArtifacts: params.includeArtifacts ?? false })),
    nextPageToken: page.next ? encodeToken(page.next) : '',
    pageSize,
    totalSize: page.total,
  };
}

const withTask = (task: A2aV1Task): A2aV1StreamResponse => ({ task });

/** The A2A 1.0 methods answered with one JSON-RPC response (`SendStreamingMessage` and `SubscribeToTask` stream). */
export const V1_METHODS: Record<string, V1Method> = {
  SendMessage: async (ctx, assistantId, params) => {
    const { run, userMessage, configuration } = await startV1Task(ctx, assistantId, params, 'SendMessage');
    const historyLength = configuration?.historyLength;
    const { tasks } = ctx;
    const task = configuration?.blocking === false ? await tasks.task(run, { userMessage, historyLength }) : await tasks.settle(run, userMessage, historyLength);
    return withTask(toV1Task(task));
  },
  GetTask: async ({ tasks, access }, assistantId, params) => {
    const assistant = await tasks.agent(assistantId, access);
    const { id, historyLength } = parseJsonRpcParams(v1GetTaskSchema, params ?? {}, 'GetTask');
    return toV1Task(await tasks.task(await tasks.run(assistant, id, access), { historyLength }));
  },
  CancelTask: async ({ tasks, access }, assistantId, params) => {
    const assistant = await tasks.agent(assistantId, access);
    const { id } = parseJsonRpcParams(v1TaskIdSchema, params ?? {}, 'CancelTask');
    return toV1Task(await tasks.cancel(await tasks.run(assistant, id, access), access));
  },
  ListTasks: (ctx, assistantId, params) => listTasks(ctx, assistantId, parseJsonRpcParams(v1ListTasksSchema, params ?? {}, 'ListTasks')),
  GetExtendedAgentCard: async () => {
    throw new JsonRpcError(A2A_ERRORS.UNSUPPORTED_OPERATION, 'This agent has no extended agent card (capabilities.extendedAgentCard is false)');
  },
};

/** Methods of push notifications, which this server does not send. */
export const V1_PUSH_NOTIFICATION_METHODS = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

export const V1_STREAM_METHODS = new Set(['SendStreamingMessage', 'SubscribeToTask']);
