import type { RunStatus } from '@platform/agent-server-run-records';
import type { A2aArtifact, A2aMessage, A2aPart, A2aTask, A2aTaskState } from './a2a.types';

// Pure mappings between LangGraph runs/state and A2A tasks/messages (taskId = run id, contextId = thread id).

/** A task's state from its run, and whether the run left the thread waiting for input (an `interrupt()`). */
export function taskState(status: RunStatus, waitingForInput: boolean): A2aTaskState {
  switch (status) {
    case 'pending':
      return 'submitted';
    case 'running':
      return 'working';
    case 'success':
      return waitingForInput ? 'input-required' : 'completed';
    case 'interrupted':
      return 'canceled';
    case 'error':
    case 'timeout':
      return 'failed';
  }
}

export const isTerminal = (state: A2aTaskState) => state === 'completed' || state === 'canceled' || state === 'failed' || state === 'rejected';

/** The text of a message's `content`: a string, or the text blocks of a content list. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (typeof block === 'string' ? block : isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : ''))
    .filter((text) => text !== '')
    .join('\n');
}

const textParts = (parts: A2aPart[]) => parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []));
const dataParts = (parts: A2aPart[]) => parts.flatMap((part) => (part.kind === 'data' ? [part.data] : []));

/** The human message an A2A message becomes: its text parts, then its data parts as JSON text; '' when it has neither. */
export function messageContent(parts: A2aPart[]): string {
  return [...textParts(parts), ...dataParts(parts).map((data) => JSON.stringify(data))].join('\n');
}

/** What resumes an interrupted graph: the message's text, else its data (one object, or the list). */
export function resumeValue(parts: A2aPart[]): unknown {
  const texts = textParts(parts);
  if (texts.length > 0) return texts.join('\n');
  const data = dataParts(parts);
  return data.length === 1 ? data[0] : data;
}

/** A serialized LangChain message in a state's `messages`, as far as A2A reads it. */
export interface StateMessage {
  type?: string;
  role?: string;
  content?: unknown;
  id?: string;
  tool_calls?: { name?: unknown }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `messages` of a state's values (serialized LangChain messages), or none. */
export function messagesOf(values: unknown): StateMessage[] {
  const messages = isRecord(values) ? values['messages'] : undefined;
  return Array.isArray(messages) ? messages.filter(isRecord) : [];
}

const kindOf = (message: StateMessage) => message.type ?? message.role;
const isHuman = (message: StateMessage) => kindOf(message) === 'human' || kindOf(message) === 'user';
export const isAi = (message: StateMessage) => kindOf(message) === 'ai' || kindOf(message) === 'assistant' || kindOf(message) === 'AIMessageChunk';

/** The agent's reply in a run's final values: the last AI message with text after the last human message. */
export function replyOf(values: unknown): { id?: string; text: string } | undefined {
  const messages = messagesOf(values);
  let start = 0;
  messages.forEach((message, index) => {
    if (isHuman(message)) start = index + 1;
  });
  for (const message of messages.slice(start).reverse()) {
    const text = textOf(message.content);
    if (isAi(message) && text.trim() !== '') return { id: typeof message.id === 'string' && message.id !== '' ? message.id : undefined, text };
  }
  return undefined;
}

/** The interrupts a run's output stopped on (`__interrupt__`), as their values. */
export function interruptValues(values: unknown): unknown[] {
  const raised = isRecord(values) ? values['__interrupt__'] : undefined;
  return Array.isArray(raised) ? raised.map((item) => (isRecord(item) && 'value' in item ? item['value'] : item)) : [];
}

const PROMPT_KEYS = ['question', 'message', 'prompt', 'text', 'description'];

/** Text asking for input: a string value, a prompt-like field of an object, else the value as JSON. */
export function interruptText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRecord(value)) {
    for (const key of PROMPT_KEYS) if (typeof value[key] === 'string') return value[key];
  }
  return JSON.stringify(value ?? null);
}

/** The `__error__` a failed run's output carries, as one line. */
export function errorText(values: unknown): string | undefined {
  const error = isRecord(values) ? values['__error__'] : undefined;
  if (!isRecord(error)) return undefined;
  const name = typeof error['error'] === 'string' ? error['error'] : undefined;
  const message = typeof error['message'] === 'string' ? error['message'] : undefined;
  return name && message ? `${name}: ${message}` : (message ?? name);
}

export interface TaskSource {
  runId: string;
  threadId: string;
  status: RunStatus;
  /** Set when the run ended with the thread interrupted and no later run took it on. */
  interrupts: unknown[] | null;
  /** The run's final values (or `{"__error__": ...}`), once it ended. */
  output: unknown;
  /** The user's message that started or resumed the run. */
  userMessage: A2aMessage;
  timestamp: string;
  historyLength?: number;
}

const agentMessage = (source: Pick<TaskSource, 'runId' | 'threadId'>, messageId: string, parts: A2aPart[]): A2aMessage => ({
  kind: 'message',
  messageId,
  role: 'agent',
  parts,
  contextId: source.threadId,
  taskId: source.runId,
});

/** The artifact holding the agent's reply, as the task and its artifact-update event show it. */
export function replyArtifact(runId: string, reply: { id?: string; text: string }): A2aArtifact {
  return { artifactId: reply.id ?? `${runId}-response`, name: 'Assistant Response', parts: [{ kind: 'text', text: reply.text }] };
}

/** The A2A task of a run: its state, the reply as an artifact, and the exchange as history. */
export function toTask(source: TaskSource): A2aTask {
  const state = taskState(source.status, source.interrupts !== null);
  const finished = source.status !== 'pending' && source.status !== 'running';
  const reply = finished && source.status !== 'error' && source.status !== 'timeout' ? replyOf(source.output) : undefined;
  const replyMessage = reply ? agentMessage(source, reply.id ?? `${source.runId}-reply`, [{ kind: 'text', text: reply.text }]) : undefined;

  let statusMessage: A2aMessage | undefined;
  if (state === 'input-required') {
    const values = source.interrupts ?? [];
    const parts: A2aPart[] = values.map((value) => ({ kind: 'text', text: interruptText(value) }));
    for (const value of values) if (isRecord(value)) parts.push({ kind: 'data', data: value });
    statusMessage = agentMessage(source, `${source.runId}-input-required`, parts.length > 0 ? parts : [{ kind: 'text', text: 'Input required' }]);
  } else if (state === 'failed') {
    const text = errorText(source.output) ?? (source.status === 'timeout' ? 'The run timed out' : 'The run failed');
    statusMessage = agentMessage(source, `${source.runId}-error`, [{ kind: 'text', text }]);
  } else if (state === 'completed') {
    statusMessage = replyMessage;
  }

  const history = [source.userMessage, ...(replyMessage ? [replyMessage] : []), ...(state === 'input-required' && statusMessage ? [statusMessage] : [])];
  const limit = source.historyLength;
  return {
    kind: 'task',
    id: source.runId,
    contextId: source.threadId,
    status: { state, ...(statusMessage ? { message: statusMessage } : {}), timestamp: source.timestamp },
    ...(reply ? { artifacts: [replyArtifact(source.runId, reply)] } : {}),
    history: limit === undefined ? history : limit <= 0 ? [] : history.slice(-limit),
  };
}
