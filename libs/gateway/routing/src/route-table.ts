/** The upstreams the gateway proxies to. `deployment` is resolved per request from the deployment id. */
export type Upstream = 'control-plane' | 'tracing' | 'export' | 'deployment';

/** `api-key`: X-Api-Key required. `public`: no key (the route authenticates itself, e.g. OAuth `state`). */
export type AuthPolicy = 'api-key' | 'public';

export interface RouteRule {
  /** Path prefix matched at a segment boundary (`/api/v1/runs` matches `/api/v1/runs/x`, not `/api/v1/runsx`). */
  prefix: string;
  upstream: Upstream;
  auth: AuthPolicy;
}

export interface RouteMatch {
  rule: RouteRule;
  /** For `deployment` routes: the id from `/deployments/{id}/...`. */
  deploymentId?: string;
  /** The path the upstream sees (the deployment prefix removed for agent servers). */
  upstreamPath: string;
  /** What was removed from the path (`/deployments/{id}`, as sent), for `X-Forwarded-Prefix`; absent when nothing was. */
  removedPrefix?: string;
}

/** Most specific first. The admin API (`/api/v1/workspaces`, `/api/v1/api-keys`) is served by the gateway itself. */
export const DEFAULT_ROUTES: readonly RouteRule[] = [
  { prefix: '/v2/auth/callback', upstream: 'control-plane', auth: 'public' },
  { prefix: '/v2', upstream: 'control-plane', auth: 'api-key' },
  { prefix: '/api/v1/bulk-exports', upstream: 'export', auth: 'api-key' },
  { prefix: '/api/v1/runs', upstream: 'tracing', auth: 'api-key' },
  { prefix: '/api/v1/sessions', upstream: 'tracing', auth: 'api-key' },
  { prefix: '/api/v1/info', upstream: 'tracing', auth: 'api-key' },
  // Signed attachment links: the link is the credential (SDKs fetch them without an API key).
  { prefix: '/api/v1/public/download', upstream: 'tracing', auth: 'public' },
  // The langsmith SDK's resource API (`client.runs`, `client.traces`); nothing else lives under /api/v2.
  { prefix: '/api/v2/runs', upstream: 'tracing', auth: 'api-key' },
  { prefix: '/api/v2/traces', upstream: 'tracing', auth: 'api-key' },
  { prefix: '/deployments', upstream: 'deployment', auth: 'api-key' },
];

const SLASH = 0x2f;
const QUESTION_MARK = 0x3f;

/** `prefix` itself, or `prefix` then `/` or `?` (no string built per rule and request: this runs on every request). */
function startsAtBoundary(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === SLASH || next === QUESTION_MARK;
}

const DEPLOYMENT_PATH = /^\/deployments\/([^/?#]+)(\/[^?#]*)?(\?.*)?$/;

/** Finds the rule for a request path (with or without query); `undefined` when none applies. */
export function matchRoute(url: string, routes: readonly RouteRule[] = DEFAULT_ROUTES): RouteMatch | undefined {
  for (const rule of routes) {
    if (!startsAtBoundary(url, rule.prefix)) continue;
    if (rule.upstream !== 'deployment') return { rule, upstreamPath: url };
    const match = DEPLOYMENT_PATH.exec(url);
    if (!match) return undefined;
    let deploymentId: string;
    try {
      deploymentId = decodeURIComponent(match[1]);
    } catch {
      return undefined;
    }
    return { rule, deploymentId, upstreamPath: `${match[2] || '/'}${match[3] ?? ''}`, removedPrefix: `/deployments/${match[1]}` };
  }
  return undefined;
}
