import type { SecretBox } from '@platform/control-plane-secrets';
import type { DeploymentRules } from './deployment-rules';
import type { DeploymentsRepository, RevisionLogsRepository } from '@platform/control-plane-data-access';

/** What the deployment use cases work with. */
export interface DeploymentsContext {
  store: DeploymentsRepository;
  /** Build and start logs of revisions. */
  logs: RevisionLogsRepository;
  box: SecretBox;
  rules: DeploymentRules;
  /** Whether `integrationId` is an OAuth token of the tenant (for private repositories). */
  integrationExists?: (tenantId: string, integrationId: string) => Promise<boolean>;
  /** Tells the reconciler there is new work (it also polls). */
  notify?: () => void;
}

export interface SecretInput {
  name: string;
  value: string;
}

/** Source fields that cannot change after creation. */
export const IMMUTABLE_SOURCE_CONFIG = ['integration_id', 'repo_url', 'deployment_type'] as const;

/** Source fields the build reads: changing one makes a new revision (built with it). */
export const BUILD_SOURCE_CONFIG = ['install_command', 'build_command'] as const;
