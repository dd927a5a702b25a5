import type { Deployment, Revision } from '@platform/control-plane-data-access';

/** Where deployments are reachable: through the gateway by path, or by host name under a wildcard domain. */
export interface DeploymentUrlOptions {
  /** The gateway's public base URL, e.g. `https://agents.example.com`. */
  publicUrl?: string;
  /** With a wildcard DNS record `*.<domain>` pointing at the gateway: `https://<id>.<domain>`. */
  wildcardDomain?: string;
}

/** The Agent Server URL of a deployment (`{deployment_url}`), or null when no public URL is configured. */
export function deploymentUrl(id: string, options: DeploymentUrlOptions): string | null {
  if (options.wildcardDomain) {
    const scheme = options.publicUrl ? new URL(options.publicUrl).protocol : 'https:';
    return `${scheme}//${id}.${options.wildcardDomain}`;
  }
  return options.publicUrl ? `${options.publicUrl.replace(/\/+$/, '')}/deployments/${id}` : null;
}

/** The JSON shape of the Deployment resource (`/v2/deployments`); `source_config.custom_url` is where it is served. */
export function deploymentJson(d: Deployment, urls: DeploymentUrlOptions = {}) {
  const url = deploymentUrl(d.id, urls);
  return {
    id: d.id,
    tenant_id: d.tenantId,
    name: d.name,
    source: d.source,
    source_config: url ? { ...d.sourceConfig, custom_url: url } : d.sourceConfig,
    source_revision_config: d.sourceRevisionConfig,
    secrets: d.secretNames.map((name) => ({ name })),
    status: d.status,
    latest_revision_id: d.latestRevisionId,
    active_revision_id: d.activeRevisionId,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

/** The JSON shape of the Revision resource. */
export function revisionJson(r: Revision) {
  return {
    id: r.id,
    deployment_id: r.deploymentId,
    status: r.status,
    status_message: r.statusMessage,
    source: r.source,
    source_revision_config: r.sourceRevisionConfig,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
