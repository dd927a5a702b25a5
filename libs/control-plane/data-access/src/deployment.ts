/**
 * Deployment statuses of the LangSmith Deployment API, and the failure of its latest revision while no revision
 * serves (a first deploy that failed: the deployment is not READY).
 */
export const DEPLOYMENT_STATUSES = ['AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN', 'CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export type DeploymentSource = 'github' | 'external_docker';

/** A deployment as the control plane's domain sees it. */
export interface Deployment {
  id: string;
  tenantId: string;
  organizationId: string | null;
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

/** A secret as stored: its name and its sealed (encrypted) value. */
export interface SealedSecret {
  name: string;
  sealed: string;
}

export interface NewDeployment {
  tenantId: string;
  organizationId: string | null;
  name: string;
  source: DeploymentSource;
  sourceConfig: Record<string, unknown>;
  sourceRevisionConfig: Record<string, unknown>;
  secrets: SealedSecret[];
}

export interface DeploymentChanges {
  sourceConfig?: Record<string, unknown>;
  sourceRevisionConfig?: Record<string, unknown>;
  /** Replaces every secret when set. */
  secrets?: SealedSecret[];
  /** Make a new revision (from the changed configuration) in the same transaction. */
  newRevision: boolean;
}
