export type { ProtocolEvent } from './protocol-events';
export { matchesFilter, type ProtocolFilter } from './protocol-filter';
export { isProtocolSeq } from './protocol-seq';
export { inputRespondRequest, parseInputRespond, parseRunStart, protocolCommandSchema, runStartRequest, PROTOCOL_STREAM_MODES } from './protocol-commands';
export { protocolStreamOnceCreated, protocolThreadStream, type ProtocolStreamDeps } from './protocol-thread-stream';
export { createRunOrdinals, type RunOrdinals } from './run-ordinals.repository';
