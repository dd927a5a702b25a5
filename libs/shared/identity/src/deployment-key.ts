import { createHmac } from 'node:crypto';

/** The label the platform secret signs to derive a deployment's key: no identity payload starts this way. */
const LABEL = 'agent-platform/deployment-key/v1\n';

/**
 * The key one deployment's Agent Server verifies the gateway's requests with (its `DEPLOYMENT_KEY`), derived from
 * the platform's internal secret: HMAC-SHA256(secret, label + deployment id). The gateway signs what it proxies to
 * deployment D with D's key, so a server holding it verifies requests for D only: it cannot sign for another
 * deployment, and the platform's own services (verifying with the secret itself) refuse whatever it signs. Knowing
 * a derived key reveals nothing of the secret (HMAC is a PRF); the label keeps a key from ever equalling a
 * signature the secret makes over an identity payload (those start with `v1`/`v2`).
 */
export function deploymentKey(platformSecret: string, deploymentId: string): string {
  if (!deploymentId) throw new Error('a deployment key needs a deployment id');
  return createHmac('sha256', platformSecret).update(LABEL + deploymentId).digest('base64url');
}
