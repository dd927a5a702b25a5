import { loadProtoPackage } from '@platform/grpc';
import type { ProtoGrpcType } from './gen/deployments';
import type { DeploymentsClient, DeploymentsDefinition, DeploymentsHandlers } from './gen/controlplane/v1/Deployments';
import { protoService, type ProtoService } from './proto-service';

export type { DeploymentsClient, DeploymentsDefinition, DeploymentsHandlers };
export type {
  ResolveDeploymentRequest,
  ResolveDeploymentRequest__Output,
} from './gen/controlplane/v1/ResolveDeploymentRequest';
export type {
  ResolveDeploymentResponse,
  ResolveDeploymentResponse__Output,
} from './gen/controlplane/v1/ResolveDeploymentResponse';

export type DeploymentsService = ProtoService<DeploymentsDefinition, DeploymentsClient, DeploymentsHandlers>;

/**
 * `controlplane.v1.Deployments` (control plane): resolves a deployment to its Agent Server's URL.
 * `protoDir` defaults to the workspace's `proto/`; apps pass their configured `PROTO_DIR`.
 */
export function deploymentsService(protoDir?: string): DeploymentsService {
  const root = loadProtoPackage('controlplane/v1/deployments.proto', protoDir) as unknown as ProtoGrpcType;
  return protoService('controlplane.v1.Deployments', root.controlplane.v1.Deployments);
}
