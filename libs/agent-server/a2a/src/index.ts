export type * from './a2a.types';
export type * from './a2a-v1.types';
export { a2aTasks, userMessageOf, type A2aTaskDeps, type A2aTasks } from './a2a-tasks';
export { isAi, isTerminal, messagesOf, textOf, toTask, type StateMessage, type TaskSource } from './a2a-task';
export { a2aMethod, type A2aMethod } from './a2a.methods';
export {
  V1_METHODS,
  V1_PUSH_NOTIFICATION_METHODS,
  V1_STREAM_METHODS,
  startV1Task,
  subscribableRun,
  toSendParams,
  type A2aV1Context,
} from './a2a-v1.methods';
export { messageSendParamsSchema, taskIdParamsSchema, taskQueryParamsSchema, type MessageSendParams } from './a2a.schemas';
export { A2A_ERRORS, invalidParams, taskNotFound, toA2aError } from './a2a-errors';
export { A2A_V1_ERRORS, toV1Error, versionNotSupported } from './a2a-v1-errors';
export { fromV1Message, fromV1State, toV1State, toV1StreamResponse, toV1Task } from './a2a-v1.mapping';
export { A2A_VERSION_HEADER, A2A_VERSIONS, a2aVersionOf, type A2aVersion } from './a2a-version';
export { A2A_MODES, A2A_PROTOCOL_VERSION, agentCard } from './a2a-card';
export { a2aInterfaces, agentCardV03, agentCardV1 } from './a2a-v1-card';
