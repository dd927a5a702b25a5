export * from './run';
export * from './run-request.schema';
export { type AssistantResolver, type RunAssistant } from './run-kwargs';
export { createRunService, type RunService, type RunServiceDeps, type RunSettings, type RunTarget } from './runs.service';
export type { RunSubscription } from './run-subscription';
export type { SubscribeFrom } from './run-stream-hub';
export type { CancelFilter } from './run.repository';
export type { RunSearchCursor, RunSearchPage, RunSearchQuery } from './run-search';
export type { RunTracingOptions } from './run-tracing';
export { THREAD_BUSY_MESSAGE } from './run-create.sql';
export { RUN_CHANNELS } from './run-channels';
export type { ThreadStreamEvent, ThreadStreamFrom } from './thread-stream';
export { readRunQueueDepth } from './run-queue.repository';
export type { ProtocolEvent } from './protocol-events';
export { matchesFilter, type ProtocolFilter } from './protocol-filter';
export { isProtocolSeq } from './protocol-seq';
export {
  inputRespondParamsSchema,
  inputRespondRequest,
  protocolCommandSchema,
  runStartParamsSchema,
  runStartRequest,
  PROTOCOL_STREAM_MODES,
} from './protocol-commands';
