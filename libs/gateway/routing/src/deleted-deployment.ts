const DEPLOYMENT_PATH = /^\/v2\/deployments\/([^/?#]+)\/?(?:\?.*)?$/;

/**
 * The deployment a control-plane answer just deleted (`DELETE /v2/deployments/{id}` → 204), so the gateway stops
 * routing to it at once rather than when its cached upstream expires.
 */
export function deletedDeploymentId(method: string | undefined, path: string | undefined, status: number | undefined): string | undefined {
  if (method !== 'DELETE' || status !== 204 || !path) return undefined;
  const id = DEPLOYMENT_PATH.exec(path)?.[1];
  return id ? decodeURIComponent(id) : undefined;
}
