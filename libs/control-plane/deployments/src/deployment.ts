/** Deployment statuses of the LangSmith Deployment API. */
export type DeploymentStatus = 'AWAITING_DATABASE' | 'READY' | 'UNUSED' | 'AWAITING_DELETE' | 'UNKNOWN';

/** A deployment as the control plane's domain sees it. */
export interface Deployment {
  id: string;
  tenantId: string;
  name: string;
  source: string;
  sourceConfig: Record<string, unknown>;
  sourceRevisionConfig: Record<string, unknown>;
  status: DeploymentStatus;
  /** Base URL of the deployment's running Agent Server; null until one is up. */
  upstreamUrl: string | null;
  latestRevisionId: string | null;
  activeRevisionId: string | null;
  secretNames: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface DeploymentFilter {
  tenantId: string;
  limit: number;
  offset: number;
  nameContains?: string;
  statuses?: string[];
  deploymentType?: string;
  ids?: string[];
}

/** Persistence of deployments; the Prisma repository implements it. */
export interface DeploymentStore {
  list(filter: DeploymentFilter): Promise<Deployment[]>;
  /** `tenantId` undefined: any tenant (internal lookups only). */
  find(id: string, tenantId?: string): Promise<Deployment | null>;
}

/** The JSON shape of the Deployment resource (`/v2/deployments`). */
export function deploymentJson(d: Deployment) {
  return {
    id: d.id,
    tenant_id: d.tenantId,
    name: d.name,
    source: d.source,
    source_config: d.sourceConfig,
    source_revision_config: d.sourceRevisionConfig,
    secrets: d.secretNames.map((name) => ({ name })),
    status: d.status,
    latest_revision_id: d.latestRevisionId,
    active_revision_id: d.activeRevisionId,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
