import { openApiDocument, type DeclaredRoute, type OpenApiDocument } from '@platform/openapi';
import type { Authenticator, IdentityStore } from '@platform/gateway-identity';
import { adminRoutes } from './admin.routes';
import { browserSessionRoutes, type BrowserSessionOptions } from './browser-session.routes';
import { internalRoutes } from './internal.routes';
import { workspaceLimitsRoutes } from './workspace-limits.routes';
import type { WorkspaceLimits } from '@platform/rate-limit';

export interface GatewayApiDeps {
  store: IdentityStore;
  authenticator: Authenticator;
  internalSecret: string;
  browserSessions: BrowserSessionOptions;
  /** Every workspace's limits but those it sets for itself. */
  defaultLimits: WorkspaceLimits;
}

/** The gateway's own routes (admin API, browser sessions, internal calls), declared once. */
export function gatewayRoutes(deps: GatewayApiDeps): DeclaredRoute[] {
  return [
    ...adminRoutes(deps.store, deps.authenticator),
    ...workspaceLimitsRoutes(deps.store, deps.authenticator, deps.defaultLimits),
    ...browserSessionRoutes(deps.store, deps.authenticator, deps.browserSessions),
    ...internalRoutes(deps.store, deps.internalSecret),
  ];
}

/** The gateway's own OpenAPI document (served at `/api/v1/gateway/openapi.json`, Swagger UI at `/api/v1/gateway/docs`). */
export function gatewayOpenApi(routes: readonly DeclaredRoute[]): OpenApiDocument {
  return openApiDocument(
    {
      title: 'Gateway',
      version: '1.0.0',
      description:
        "The gateway's own API: workspaces and API keys of the caller's organization, the web console's browser sessions, and what platform services ask of it. Requests take `X-Api-Key` (or a browser session's cookie with its `X-CSRF-Token`).",
      tags: [{ name: 'Workspaces' }, { name: 'API keys' }, { name: 'Browser session' }, { name: 'Internal' }],
    },
    routes,
  );
}
