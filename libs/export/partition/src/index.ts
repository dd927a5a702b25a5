export * from './partition.types';
export * from './ports';
export * from './partition.errors';
export { fileKey, nextFileIndex, partitionFolder } from './object-keys';
export { exportPartition, type ExportPartitionDeps, type ExportPartitionOptions, type PartitionOutcome } from './export-partition.usecase';
export { GrpcRunSource, type GrpcRunSourceOptions } from './adapters/grpc-run-source';
export { GrpcProgressReporter, type GrpcProgressReporterOptions } from './adapters/grpc-progress-reporter';
export { S3ObjectStore, s3ObjectStores, partSizeFor, MAX_PARTS, type S3ObjectStoreOptions } from './adapters/s3-object-store';
