import type { RouteMatch } from './route-table';

const LABEL = /^[a-z0-9-]{1,63}$/;

/**
 * Host-name routing under a wildcard domain: `<deployment id>.<domain>` (any port) goes to that deployment's Agent
 * Server with the path unchanged. `undefined` when the host is not such a name.
 */
export function matchDeploymentHost(host: string | undefined, domain: string | undefined, url: string): RouteMatch | undefined {
  if (!host || !domain) return undefined;
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${domain.toLowerCase().replace(/^\*\./, '').replace(/\.$/, '')}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  if (!LABEL.test(label)) return undefined;
  return { rule: { prefix: '/', upstream: 'deployment', auth: 'api-key' }, deploymentId: label, upstreamPath: url };
}
