import { loadProtoPackage } from '@platform/grpc';
import type { ProtoGrpcType } from './gen/health';
import type { HealthClient, HealthDefinition, HealthHandlers } from './gen/grpc/health/v1/Health';
import { protoService, type ProtoService } from './proto-service';

export type { HealthClient, HealthDefinition, HealthHandlers };
export type { HealthCheckRequest, HealthCheckRequest__Output } from './gen/grpc/health/v1/HealthCheckRequest';
export type { HealthCheckResponse, HealthCheckResponse__Output } from './gen/grpc/health/v1/HealthCheckResponse';

export type HealthService = ProtoService<HealthDefinition, HealthClient, HealthHandlers>;

/**
 * The standard `grpc.health.v1.Health`. Servers started with `startGrpcServer` already serve it;
 * this is for clients that watch a peer (e.g. `readStream(client, 'Watch', { service })`).
 */
export function healthService(protoDir?: string): HealthService {
  const root = loadProtoPackage('grpc/health/v1/health.proto', protoDir) as unknown as ProtoGrpcType;
  return protoService('grpc.health.v1.Health', root.grpc.health.v1.Health);
}
