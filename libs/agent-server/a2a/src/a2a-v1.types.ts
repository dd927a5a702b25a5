// A2A protocol 1.0 objects on the wire (ProtoJSON, as `@a2a-js/sdk` 1.x serialises them): no `kind` discriminators,
// parts told apart by their member (`text`, `data`, `url`, `raw`), enums in SCREAMING_SNAKE_CASE.

export type A2aV1TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_AUTH_REQUIRED';

export type A2aV1Role = 'ROLE_USER' | 'ROLE_AGENT';

type PartBase = { metadata?: Record<string, unknown>; filename?: string; mediaType?: string };

export type A2aV1Part = PartBase & ({ text: string } | { data: unknown } | { url: string } | { raw: string });

export interface A2aV1Message {
  messageId: string;
  role: A2aV1Role;
  parts: A2aV1Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
  referenceTaskIds?: string[];
}

export interface A2aV1TaskStatus {
  state: A2aV1TaskState;
  message?: A2aV1Message;
  timestamp?: string;
}

export interface A2aV1Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2aV1Part[];
  metadata?: Record<string, unknown>;
}

export interface A2aV1Task {
  id: string;
  contextId: string;
  status: A2aV1TaskStatus;
  artifacts?: A2aV1Artifact[];
  history?: A2aV1Message[];
  metadata?: Record<string, unknown>;
}

/** One event of a stream (and what `SendMessage` answers): exactly one member is set. */
export type A2aV1StreamResponse =
  | { task: A2aV1Task }
  | { message: A2aV1Message }
  | { statusUpdate: { taskId: string; contextId: string; status: A2aV1TaskStatus; metadata?: Record<string, unknown> } }
  | { artifactUpdate: { taskId: string; contextId: string; artifact: A2aV1Artifact; append?: boolean; lastChunk?: boolean } };

export interface A2aV1AgentInterface {
  url: string;
  protocolBinding: 'JSONRPC';
  protocolVersion: string;
}

export interface A2aV1AgentCard {
  name: string;
  description: string;
  supportedInterfaces: A2aV1AgentInterface[];
  version: string;
  capabilities: { streaming: boolean; pushNotifications: boolean; extendedAgentCard: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: { id: string; name: string; description: string; tags: string[]; examples?: string[]; inputModes?: string[]; outputModes?: string[] }[];
}

export interface A2aV1ListTasksResponse {
  tasks: A2aV1Task[];
  /** '' on the last page. */
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}
