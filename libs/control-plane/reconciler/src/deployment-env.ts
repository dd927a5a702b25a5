import { databaseEnv, type DatabaseLocation } from '@platform/control-plane-drivers';

export interface AgentEnvOptions {
  internalSecret: string;
  logLevel: string;
  /** LangSmith-compatible tracing API the servers send traces to (`{gateway}/api/v1`); unset = no tracing. */
  tracingEndpoint?: string;
}

/**
 * The environment of a deployment's Agent Server: who it is, its own database, the internal secret (so the
 * gateway's signed requests pass), tracing into a project named after the deployment, then the secrets.
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
    INTERNAL_SECRET: options.internalSecret,
    LOG_LEVEL: options.logLevel,
    MIGRATE_ON_START: 'true',
    ...databaseEnv(input.database),
    ...tracing,
    // Secrets come last: a deployment may point LANGSMITH_* elsewhere; reserved names were refused at the API.
    ...input.secrets,
  };
}
