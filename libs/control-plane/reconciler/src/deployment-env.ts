import { databaseEnv, type DatabaseLocation } from '@platform/control-plane-drivers';
import { deploymentKey } from '@platform/identity';

export interface AgentEnvOptions {
  /** The platform's internal secret: only to derive each deployment's key from; it never goes into the environment. */
  internalSecret: string;
  /** Former internal secrets (a rotation window): the deployment also gets its keys under them. */
  previousSecrets?: readonly string[];
  logLevel: string;
  /** LangSmith-compatible tracing API the servers send traces to (`{gateway}/api/v1`); unset = no tracing. */
  tracingEndpoint?: string;
  /**
   * The operator's egress allowlist for deployments (DEPLOYMENT_EGRESS_ALLOWED_*): where their run webhooks may go
   * beyond public addresses. Given as EGRESS_ALLOWED_CIDRS/HOSTS, after the secrets (a tenant cannot set them).
   */
  egress?: { cidrs: readonly string[]; hosts: readonly string[] };
}

/**
 * The environment of a deployment's Agent Server: who it is, its own database, its own key (DEPLOYMENT_KEY, derived
 * from the internal secret and its id: the gateway's requests for this deployment verify with it, nothing else
 * does), tracing into a project named after the deployment with its own workspace-bound key, then the secrets.
 * Nothing in it signs for another deployment, workspace or platform service.
 */
export function agentServerEnv(input: {
  deploymentId: string;
  tenantId: string;
  deploymentName: string;
  database: DatabaseLocation;
  tracingKey?: string;
  secrets: Record<string, string>;
  options: AgentEnvOptions;
}): Record<string, string> {
  const { options } = input;
  const tracing: Record<string, string> =
    options.tracingEndpoint && input.tracingKey
      ? {
          LANGSMITH_TRACING: 'true',
          LANGSMITH_ENDPOINT: options.tracingEndpoint,
          LANGSMITH_API_KEY: input.tracingKey,
          LANGSMITH_PROJECT: input.deploymentName,
          LANGSMITH_WORKSPACE_ID: input.tenantId,
        }
      : { LANGSMITH_TRACING: 'false' };
  return {
    DEPLOYMENT_ID: input.deploymentId,
    DEPLOYMENT_KEY: deploymentKey(options.internalSecret, input.deploymentId),
    ...(options.previousSecrets?.length ? { DEPLOYMENT_KEYS_PREVIOUS: options.previousSecrets.map((s) => deploymentKey(s, input.deploymentId)).join(',') } : {}),
    LOG_LEVEL: options.logLevel,
    MIGRATE_ON_START: 'true',
    ...databaseEnv(input.database),
    ...tracing,
    // Secrets come last: a deployment may point LANGSMITH_* elsewhere; reserved names were refused at the API.
    ...input.secrets,
    EGRESS_ALLOWED_CIDRS: (options.egress?.cidrs ?? []).join(','),
    EGRESS_ALLOWED_HOSTS: (options.egress?.hosts ?? []).join(','),
  };
}
