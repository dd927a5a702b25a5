import type { Builder } from '@platform/control-plane-builder';
import type { ReconcilerRepository, RevisionLogsRepository } from '@platform/control-plane-data-access';
import type { DeploymentDatabases, DeploymentDriver, TracingKeys } from '@platform/control-plane-drivers';
import type { SecretBox } from '@platform/control-plane-secrets';
import type { Logger } from '@platform/logging';
import type { AgentEnvOptions } from './deployment-env';

export interface ReconcilerOptions {
  /** How often the leader looks for work (it is also woken by the API). */
  pollIntervalMs: number;
  /** A build or deploy step interrupted this many times (control-plane restarts) fails instead of starting again. */
  maxAttempts: number;
  maxConcurrentBuilds: number;
  /** Checkouts (`builds/`) and logs (`logs/`). */
  workDir: string;
  /** The install command the platform uses when a project needs one (recorded for drivers that install again). */
  defaultInstallCommand: string;
  agentEnv: AgentEnvOptions;
}

export interface ReconcilerDeps {
  /** Its deployments and revisions, fenced by the leadership lease this replica holds or waits for. */
  records: ReconcilerRepository;
  driver: DeploymentDriver;
  builder: Builder;
  databases: DeploymentDatabases;
  /** Mints tracing credentials for deployments; absent = deployments run without tracing. */
  tracingKeys?: TracingKeys;
  box: SecretBox;
  /** Where each revision's build and start log goes (readable through the API); absent = files under workDir only. */
  revisionLogs?: RevisionLogsRepository;
  /** The OAuth access token of an integration (private repositories); null when there is none. */
  integrationToken?: (tenantId: string, integrationId: string) => Promise<string | null>;
  logger: Logger;
  options: ReconcilerOptions;
}
