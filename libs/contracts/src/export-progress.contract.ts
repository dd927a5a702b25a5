import { loadProtoPackage } from '@platform/grpc';
import type { ProtoGrpcType } from './gen/progress';
import type { ExportProgressClient, ExportProgressDefinition, ExportProgressHandlers } from './gen/export/v1/ExportProgress';
import { protoService, type ProtoService } from './proto-service';

export type { ExportProgressClient, ExportProgressDefinition, ExportProgressHandlers };
export type { FileWritten, FileWritten__Output } from './gen/export/v1/FileWritten';
export type { ReportProgressRequest, ReportProgressRequest__Output } from './gen/export/v1/ReportProgressRequest';
export type { ReportProgressResponse, ReportProgressResponse__Output } from './gen/export/v1/ReportProgressResponse';
export type { ReportFailureRequest, ReportFailureRequest__Output } from './gen/export/v1/ReportFailureRequest';
export type { ReportFailureResponse, ReportFailureResponse__Output } from './gen/export/v1/ReportFailureResponse';
export type { GetRunCheckpointRequest, GetRunCheckpointRequest__Output } from './gen/export/v1/GetRunCheckpointRequest';
export type { RunCheckpoint, RunCheckpoint__Output } from './gen/export/v1/RunCheckpoint';
export type { RunSpec, RunSpec__Output } from './gen/export/v1/RunSpec';
export type { Destination, Destination__Output } from './gen/export/v1/Destination';

export type ExportProgressService = ProtoService<ExportProgressDefinition, ExportProgressClient, ExportProgressHandlers>;

/**
 * `export.v1.ExportProgress` (export): workers record checkpoints and failures of an export run,
 * and read the last checkpoint when they (re)start one.
 */
export function exportProgressService(protoDir?: string): ExportProgressService {
  const root = loadProtoPackage('export/v1/progress.proto', protoDir) as unknown as ProtoGrpcType;
  return protoService('export.v1.ExportProgress', root.export.v1.ExportProgress);
}
