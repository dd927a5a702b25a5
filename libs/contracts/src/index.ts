export * from './deployments.contract';
export * from './runs.contract';
export * from './export-progress.contract';
export * from './health.contract';
export { protoService, type ProtoService } from './proto-service';
export * from './run-fields';
export * from './time-micros';
// The loader options and proto lookup are shared with @platform/grpc, which loads the same files.
export { PROTO_LOADER_OPTIONS, findProtoDir } from '@platform/grpc';
export * from './export-jobs.contract';
