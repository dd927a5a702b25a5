export { createRunService, type RunService, type RunServiceDeps, type RunSettings, type RunTarget } from './runs.service';
export type { RunTracingOptions } from './run-tracing';
export { readRunQueueDepth } from './run-queue.repository';
export type { ProtocolEvent } from './protocol-events';
export { matchesFilter, type ProtocolFilter } from './protocol-filter';
export { isProtocolSeq } from './protocol-seq';
export { inputRespondRequest, parseInputRespond, parseRunStart, protocolCommandSchema, runStartRequest, PROTOCOL_STREAM_MODES } from './protocol-commands';
