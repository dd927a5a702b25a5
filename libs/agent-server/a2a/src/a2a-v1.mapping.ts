import type { A2aArtifact, A2aMessage, A2aPart, A2aStreamEvent, A2aTask, A2aTaskState, A2aTaskStatus } from './a2a.types';
import type { A2aV1Artifact, A2aV1Message, A2aV1Part, A2aV1StreamResponse, A2aV1Task, A2aV1TaskState, A2aV1TaskStatus } from './a2a-v1.types';

// Tasks are built once, in the 0.3 shape (a2a-task.ts); these pure functions carry them to and from A2A 1.0.

const STATES: Record<A2aTaskState, A2aV1TaskState | undefined> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  // 1.0 has no "unknown" state; this server never reports it.
  unknown: undefined,
};

export function toV1State(state: A2aTaskState): A2aV1TaskState {
  const mapped = STATES[state];
  if (!mapped) throw new Error(`No A2A 1.0 task state for '${state}'`);
  return mapped;
}

/** The 0.3 state a 1.0 state names (ListTasks filters by it). */
export function fromV1State(state: A2aV1TaskState): A2aTaskState {
  const found = (Object.entries(STATES) as [A2aTaskState, A2aV1TaskState | undefined][]).find(([, v]) => v === state);
  return (found as [A2aTaskState, A2aV1TaskState])[0];
}

const withMetadata = <T extends object>(value: T, metadata: Record<string, unknown> | undefined): T =>
  metadata === undefined ? value : { ...value, metadata };

export function toV1Part(part: A2aPart): A2aV1Part {
  switch (part.kind) {
    case 'text':
      return withMetadata({ text: part.text }, part.metadata);
    case 'data':
      return withMetadata({ data: part.data, mediaType: 'application/json' }, part.metadata);
    case 'file': {
      const { mimeType, name } = part.file;
      const content = 'uri' in part.file ? { url: part.file.uri } : { raw: part.file.bytes };
      return withMetadata({ ...content, ...(mimeType ? { mediaType: mimeType } : {}), ...(name ? { filename: name } : {}) }, part.metadata);
    }
  }
}

export function toV1Message(message: A2aMessage): A2aV1Message {
  return {
    messageId: message.messageId,
    role: message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: message.parts.map(toV1Part),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
  };
}

export function toV1Status(status: A2aTaskStatus): A2aV1TaskStatus {
  return {
    state: toV1State(status.state),
    ...(status.message ? { message: toV1Message(status.message) } : {}),
    ...(status.timestamp ? { timestamp: status.timestamp } : {}),
  };
}

export function toV1Artifact(artifact: A2aArtifact): A2aV1Artifact {
  return withMetadata(
    {
      artifactId: artifact.artifactId,
      ...(artifact.name ? { name: artifact.name } : {}),
      ...(artifact.description ? { description: artifact.description } : {}),
      parts: artifact.parts.map(toV1Part),
    },
    artifact.metadata,
  );
}

/** A task in 1.0's shape; without `includeArtifacts` its artifacts are left out (ListTasks). */
export function toV1Task(task: A2aTask, options: { includeArtifacts?: boolean } = {}): A2aV1Task {
  const artifacts = options.includeArtifacts === false ? undefined : task.artifacts;
  return withMetadata(
    {
      id: task.id,
      contextId: task.contextId,
      status: toV1Status(task.status),
      ...(artifacts?.length ? { artifacts: artifacts.map(toV1Artifact) } : {}),
      ...(task.history?.length ? { history: task.history.map(toV1Message) } : {}),
    },
    task.metadata,
  );
}

/** A stream event in 1.0's shape: a member names its kind; the end of the stream says it is the last (no `final`). */
export function toV1StreamResponse(event: A2aStreamEvent): A2aV1StreamResponse {
  switch (event.kind) {
    case 'task':
      return { task: toV1Task(event) };
    case 'status-update':
      return { statusUpdate: { taskId: event.taskId, contextId: event.contextId, status: toV1Status(event.status) } };
    case 'artifact-update': {
      const { taskId, contextId, artifact, append, lastChunk } = event;
      return { artifactUpdate: { taskId, contextId, artifact: toV1Artifact(artifact), ...(append ? { append } : {}), ...(lastChunk ? { lastChunk } : {}) } };
    }
  }
}

/** A part as received (validated to hold exactly one of text, data, url, raw). */
export type A2aV1PartInput = Omit<A2aV1Part, 'text' | 'data' | 'url' | 'raw'> & { text?: string; data?: unknown; url?: string; raw?: string };

/** A 1.0 part as the 0.3 part the task code reads. */
export function fromV1Part(part: A2aV1PartInput): A2aPart {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  if (part.text !== undefined) return { kind: 'text', text: part.text, ...metadata };
  if ('data' in part) {
    // 0.3 data parts hold objects; other JSON values travel wrapped, as the SDK's compatibility layer does.
    const data = typeof part.data === 'object' && part.data !== null && !Array.isArray(part.data) ? (part.data as Record<string, unknown>) : { value: part.data };
    return { kind: 'data', data, ...metadata };
  }
  const file = { ...(part.mediaType ? { mimeType: part.mediaType } : {}), ...(part.filename ? { name: part.filename } : {}) };
  return part.url !== undefined ? { kind: 'file', file: { uri: part.url, ...file }, ...metadata } : { kind: 'file', file: { bytes: part.raw ?? '', ...file }, ...metadata };
}

/** A 1.0 message as the 0.3 message the task code reads. */
export function fromV1Message(message: Omit<A2aV1Message, 'parts'> & { parts: A2aV1PartInput[] }): A2aMessage & { referenceTaskIds?: string[] } {
  return {
    kind: 'message',
    messageId: message.messageId,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: message.parts.map(fromV1Part),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.referenceTaskIds?.length ? { referenceTaskIds: message.referenceTaskIds } : {}),
  };
}
