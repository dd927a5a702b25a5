import type { Deployment, DeploymentChanges, DeploymentFilter, NewDeployment, SealedSecret } from './deployment';
import type { Revision, RevisionFilter } from './revision';

/** Persistence of deployments and their revisions; the Prisma repository implements it. */
export interface DeploymentStore {
  list(filter: DeploymentFilter): Promise<Deployment[]>;
  /** `tenantId` undefined: any tenant (internal lookups only). */
  find(id: string, tenantId?: string): Promise<Deployment | null>;
  /** Base URLs of the deployment's serving instances (its Agent Server replicas), oldest first. */
  replicaUrls(id: string): Promise<string[]>;
  /** The deployment, its secrets and its first revision (CREATING), in one transaction. Name taken → ConflictError. */
  create(input: NewDeployment): Promise<{ deployment: Deployment; revision: Revision }>;
  /** Applies changes (and makes a revision when asked) in one transaction. */
  update(id: string, changes: DeploymentChanges): Promise<{ deployment: Deployment; revision: Revision | null }>;
  /** A new revision of `deploymentId` with the given configuration, made the latest. */
  addRevision(deploymentId: string, config: { sourceConfig: Record<string, unknown>; sourceRevisionConfig: Record<string, unknown> }): Promise<{ deployment: Deployment; revision: Revision }>;
  /** Sets the status AWAITING_DELETE; the reconciler removes it. */
  markDeleting(id: string): Promise<void>;
  sealedSecrets(id: string): Promise<SealedSecret[]>;
  listRevisions(deploymentId: string, filter: RevisionFilter): Promise<Revision[]>;
  findRevision(deploymentId: string, revisionId: string): Promise<Revision | null>;
  /** Moves an in-progress revision to INTERRUPTED; null when it was not in progress (any more). */
  interruptRevision(revisionId: string, message: string): Promise<Revision | null>;
}
