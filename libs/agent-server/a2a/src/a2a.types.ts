// A2A protocol 0.3.0 objects this server sends, shaped as `@a2a-js/sdk` types them (kept here: the SDK is a dev
// dependency, used by the tests).

export type A2aTaskState = 'submitted' | 'working' | 'input-required' | 'completed' | 'canceled' | 'failed' | 'rejected' | 'auth-required' | 'unknown';

export type A2aPart =
  | { kind: 'text'; text: string; metadata?: Record<string, unknown> }
  | { kind: 'data'; data: Record<string, unknown>; metadata?: Record<string, unknown> }
  | { kind: 'file'; file: { uri: string; mimeType?: string; name?: string } | { bytes: string; mimeType?: string; name?: string }; metadata?: Record<string, unknown> };

export interface A2aMessage {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: A2aPart[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface A2aTaskStatus {
  state: A2aTaskState;
  message?: A2aMessage;
  timestamp?: string;
}

export interface A2aArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2aPart[];
  metadata?: Record<string, unknown>;
}

export interface A2aTask {
  kind: 'task';
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  artifacts?: A2aArtifact[];
  history?: A2aMessage[];
  metadata?: Record<string, unknown>;
}

export interface A2aStatusUpdate {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: A2aTaskStatus;
  final: boolean;
}

export interface A2aArtifactUpdate {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: A2aArtifact;
  append?: boolean;
  lastChunk?: boolean;
}

export type A2aStreamEvent = A2aTask | A2aStatusUpdate | A2aArtifactUpdate;

export interface A2aSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface A2aAgentCard {
  protocolVersion: string;
  name: string;
  description: string;
  url: string;
  preferredTransport: 'JSONRPC';
  additionalInterfaces: { url: string; transport: string }[];
  version: string;
  capabilities: { streaming: boolean; pushNotifications: boolean; stateTransitionHistory: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: A2aSkill[];
  supportsAuthenticatedExtendedCard: boolean;
}
