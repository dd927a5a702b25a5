import { loadProtoPackage, useCompiledResponseEncoder, type MessageDescriptor } from '@platform/grpc';
import type { ProtoGrpcType } from './gen/runs';
import type { RunsClient, RunsDefinition, RunsHandlers } from './gen/tracing/v1/Runs';
import { protoService, type ProtoService } from './proto-service';

export type { RunsClient, RunsDefinition, RunsHandlers };
export type { Run, Run__Output } from './gen/tracing/v1/Run';
export type { RunBatch, RunBatch__Output } from './gen/tracing/v1/RunBatch';
export type { NdjsonRuns, NdjsonRuns__Output } from './gen/tracing/v1/NdjsonRuns';
export { RunEncoding } from './gen/tracing/v1/RunEncoding';
export type { RunCursor, RunCursor__Output } from './gen/tracing/v1/RunCursor';
export type { StreamRunsRequest, StreamRunsRequest__Output } from './gen/tracing/v1/StreamRunsRequest';

export type RunsService = ProtoService<RunsDefinition, RunsClient, RunsHandlers>;

/**
 * `tracing.v1.Runs` (tracing): server-streams a project's runs in (start_time, id) order for
 * exporters. Times are epoch microseconds as int64 decimal strings (see `time-micros`).
 */
export function runsService(protoDir?: string): RunsService {
  const root = loadProtoPackage('tracing/v1/runs.proto', protoDir) as unknown as ProtoGrpcType;
  const service = protoService<RunsDefinition, RunsClient, RunsHandlers>('tracing.v1.Runs', root.tracing.v1.Runs);
  // Pages of runs are most of what tracing sends: encoded without protobufjs' object conversion (same bytes).
  const messages = root.tracing.v1 as unknown as Record<string, { type?: MessageDescriptor } | undefined>;
  useCompiledResponseEncoder(service.definition.StreamRuns, (typeName) => messages[typeName.replace(/^\.?tracing\.v1\./, '')]?.type);
  return service;
}
