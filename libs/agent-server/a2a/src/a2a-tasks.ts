import { randomUUID } from 'node:crypto';
import { getAssistantStateKeys, type Assistant, type AssistantRepository } from '@platform/agent-server-assistants';
import type { Access } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import { isFinished, runCreateSchema, type RunRecord } from '@platform/agent-server-run-records';
import type { ThreadRepository } from '@platform/agent-server-threads';
import { isPlatformError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { A2A_ERRORS, invalidParams, taskNotFound } from './a2a-errors';
import { messageContent, resumeValue, textOf, toTask, type TaskSource } from './a2a-task';
import type { MessageSendParams } from './a2a.schemas';
import type { A2aMessage, A2aPart, A2aTask } from './a2a.types';
import { JsonRpcError } from '@platform/json-rpc';

export interface A2aTaskDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  runs: RunService;
  threads: ThreadRepository;
}

// Run metadata keys: the A2A message a run answers, so a task's history shows it as sent.
const MESSAGE_ID = 'a2a_message_id';


const isNotFound = (err: unknown) => isPlatformError(err) && err.code === 'not_found';

/**
 * A2A tasks over runs: taskId = run id, contextId = thread id. One instance per router; it remembers which
 * graphs have a `messages` channel (A2A talks in messages, so a graph without one cannot take part). `access` is
 * what the request may do under the deployment's auth, as for the REST routes that read and create the same.
 */
export function a2aTasks(deps: A2aTaskDeps) {
  const messageGraphs = new Map<string, Promise<boolean>>();

  const hasMessages = (assistant: Assistant) => {
    let known = messageGraphs.get(assistant.graph_id);
    if (!known) {
      known = getAssistantStateKeys(deps, assistant.assistant_id).then(
        (keys) => keys.includes('messages'),
        (err: unknown) => {
          messageGraphs.delete(assistant.graph_id);
          throw err;
        },
      );
      messageGraphs.set(assistant.graph_id, known);
    }
    return known;
  };

  /** The assistant behind `/a2a/{id}` (an id or a graph id); JSON-RPC errors when unknown or not message-based. */
  async function agent(assistantIdOrGraphId: string, access: Access): Promise<Assistant> {
    let assistant: Assistant;
    try {
      const visible = await access.authorize('assistants:read', { assistant_id: assistantIdOrGraphId });
      assistant = await deps.assistants.resolve(assistantIdOrGraphId, visible);
    } catch (err) {
      if (isNotFound(err)) throw invalidParams(`Assistant '${assistantIdOrGraphId}' not found`, { assistant_id: assistantIdOrGraphId });
      throw err;
    }
    if (!(await hasMessages(assistant))) {
      throw new JsonRpcError(
        A2A_ERRORS.UNSUPPORTED_OPERATION,
        `Assistant '${assistant.assistant_id}' (graph '${assistant.graph_id}') cannot take A2A messages: its state has no 'messages' channel`,
        { assistant_id: assistant.assistant_id, graph_id: assistant.graph_id },
      );
    }
    return assistant;
  }

  /** The run of a task of this assistant; TaskNotFoundError otherwise. */
  async function run(assistant: Assistant, taskId: string, access: Access): Promise<RunRecord> {
    if (!isUuid(taskId)) throw taskNotFound(taskId);
    try {
      const found = await deps.runs.getById(taskId, await access.authorize('threads:read', { thread_id: undefined }));
      if (found.assistant_id !== assistant.assistant_id) throw taskNotFound(taskId);
      return found;
    } catch (err) {
      if (isNotFound(err)) throw taskNotFound(taskId);
      throw err;
    }
  }

  /** Whether the run ended with the thread waiting for input (and no later run took the thread on): its interrupts. */
  async function pendingInterrupts(record: RunRecord): Promise<unknown[] | null> {
    if (record.status !== 'success') return null;
    const thread = await deps.threads.find(record.thread_id);
    if (thread?.status !== 'interrupted') return null;
    const [latest] = await deps.runs.list(record.thread_id, { limit: 1, offset: 0 });
    if (latest?.run_id !== record.run_id) return null;
    return Object.values(thread.interrupts)
      .flat()
      .map((item) => item.value);
  }

  /**
   * Starts the task a message asks for: a run on its context's thread (created when missing), or on a new one.
   * A message naming a task that waits for input resumes it with the message; other messages are new input.
   */
  async function start(assistant: Assistant, params: MessageSendParams, access: Access): Promise<{ run: RunRecord; userMessage: A2aMessage }> {
    const { message } = params;
    const content = messageContent(message.parts as A2aPart[]);
    if (content.trim() === '') throw invalidParams('message.parts holds no text or data part with content');
    if (message.contextId !== undefined && !isUuid(message.contextId)) {
      throw invalidParams(`message.contextId must be a UUID (a thread id), got '${message.contextId}'`);
    }
    const previous = message.taskId === undefined ? undefined : await run(assistant, message.taskId, access);
    if (previous && message.contextId !== undefined && previous.thread_id !== message.contextId.toLowerCase()) {
      throw invalidParams(`message.taskId '${previous.run_id}' belongs to contextId '${previous.thread_id}', not '${message.contextId}'`);
    }
    const threadId = previous?.thread_id ?? message.contextId?.toLowerCase() ?? randomUUID();
    const resume = previous !== undefined && (await pendingInterrupts(previous)) !== null;
    const request = runCreateSchema.parse({
      assistant_id: assistant.assistant_id,
      ...(resume ? { command: { resume: resumeValue(message.parts as A2aPart[]) } } : { input: { messages: [{ role: 'human', content }] } }),
      if_not_exists: 'create',
      stream_mode: ['values'],
      metadata: { [MESSAGE_ID]: message.messageId },
    });
    const created = await deps.runs.create({ threadId }, request, access);
    return { run: created, userMessage: { ...(message as A2aMessage), kind: 'message', contextId: created.thread_id, taskId: created.run_id } };
  }

  // A run that stopped on an interrupt answers only `{__interrupt__}`: the reply it gave is in its thread's values.
  async function withThreadValues(record: RunRecord, output: unknown): Promise<unknown> {
    if (typeof output !== 'object' || output === null || Object.keys(output).join() !== '__interrupt__') return output;
    const values = (await deps.threads.find(record.thread_id))?.values;
    return typeof values === 'object' && values !== null ? { ...values, ...output } : output;
  }

  /** The task of a run as it is now; `output` (JSON text) when the caller already has it. */
  async function task(record: RunRecord, options: { userMessage?: A2aMessage; output?: string; historyLength?: number } = {}): Promise<A2aTask> {
    const finished = isFinished(record.status);
    const outputText = options.output ?? (finished ? await deps.runs.output(record).catch(() => 'null') : 'null');
    const output = JSON.parse(outputText) as unknown;
    const source: TaskSource = {
      runId: record.run_id,
      threadId: record.thread_id,
      status: record.status,
      interrupts: await pendingInterrupts(record),
      output: await withThreadValues(record, output),
      userMessage: options.userMessage ?? userMessageOf(record),
      timestamp: (record.ended_at ?? record.updated_at).toISOString(),
      historyLength: options.historyLength,
    };
    return toTask(source);
  }

  /** Waits for the run to end, then its task. */
  async function settle(record: RunRecord, userMessage: A2aMessage, historyLength?: number): Promise<A2aTask> {
    const output = await deps.runs.output(record, { fresh: true });
    return task(await deps.runs.getById(record.run_id), { userMessage, output, historyLength });
  }

  /** Interrupts a pending or running task and waits until it stopped; TaskNotCancelableError once it ended. */
  async function cancel(record: RunRecord, access: Access): Promise<A2aTask> {
    if (isFinished(record.status)) {
      throw new JsonRpcError(A2A_ERRORS.TASK_NOT_CANCELABLE, `Task cannot be canceled: ${record.run_id} already ended (${record.status})`, {
        taskId: record.run_id,
        status: record.status,
      });
    }
    const visible = await access.authorize('threads:update', {
      thread_id: record.thread_id,
      action: 'interrupt',
      metadata: { run_ids: [record.run_id], status: 'pending' },
    });
    await deps.runs.cancel(record.thread_id, record.run_id, { action: 'interrupt', wait: true, visible });
    return task(await deps.runs.getById(record.run_id));
  }

  return { agent, run, start, task, settle, cancel };
}

export type A2aTasks = ReturnType<typeof a2aTasks>;

/** The user's message of a run that was not started in this request: rebuilt from its input or resume value. */
export function userMessageOf(record: RunRecord): A2aMessage {
  const { input, command } = record.kwargs;
  const messageId = typeof record.metadata[MESSAGE_ID] === 'string' ? (record.metadata[MESSAGE_ID] as string) : `${record.run_id}-input`;
  let parts: A2aPart[];
  if (command && command.resume !== undefined) {
    const value = command.resume;
    parts = typeof value === 'object' && value !== null && !Array.isArray(value) ? [{ kind: 'data', data: value as Record<string, unknown> }] : [{ kind: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }];
  } else {
    const messages = (input as { messages?: { content?: unknown }[] } | null)?.messages;
    const text = Array.isArray(messages) ? messages.map((m) => textOf(m?.content)).join('\n') : JSON.stringify(input ?? null);
    parts = [{ kind: 'text', text }];
  }
  return { kind: 'message', messageId, role: 'user', parts, contextId: record.thread_id, taskId: record.run_id };
}
