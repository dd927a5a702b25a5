export { silentLogger, type GrpcLogger } from './logger';
export { PROTO_LOADER_OPTIONS } from './proto-loader-options';
export { findProtoDir, loadProtoPackage, serviceConstructor } from './proto-files';
export type { CallContext } from './call-context';
export { unary, serverStream, type ServerStreamOptions } from './handler-adapters';
export {
  startGrpcServer,
  serviceNameOf,
  type GrpcServerOptions,
  type GrpcServerHandle,
  type ServiceImplementation,
} from './grpc-server';
export { HEALTH_SERVICE_NAME, type ServingStatus, type HealthStatus } from './health.service';
export { createClient, DEFAULT_DEADLINE_MS, type ClientOptions, type ClientConstructor } from './grpc-client';
export { callUnary, type CallOptions } from './call-unary';
export { readStream, type StreamOptions } from './read-stream';
export { checkHealth, type CheckHealthOptions } from './check-health';
export { isServiceError } from './client-errors';
export type { UnaryMethodOf, StreamMethodOf, UnaryRequest, UnaryResponse, StreamRequest, StreamResponse } from './method-types';
export { compileMessageEncoder, useCompiledResponseEncoder, type EncoderOptions, type MessageDescriptor, type MessageEncoder } from './message-encoder';
