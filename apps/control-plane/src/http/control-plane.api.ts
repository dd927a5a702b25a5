import type { DeploymentUrlOptions, DeploymentsContext } from '@platform/control-plane-deployments';
import type { OAuthContext } from '@platform/control-plane-oauth';
import { openApiDocument, type DeclaredRoute, type OpenApiDocument } from '@platform/openapi';
import { authRoutes } from './auth.routes';
import { deploymentsRoutes } from './deployments.routes';
import { revisionsRoutes } from './revisions.routes';
import { sourcesRoutes } from './sources.routes';

/** What the `/v2` routes need (the app's deps extend it). */
export interface ControlPlaneApiDeps {
  deployments: DeploymentsContext;
  oauth: OAuthContext;
  urls: DeploymentUrlOptions;
  /** Where uploaded sources are kept (`POST /v2/sources/{name}`). */
  sourcesDir: string;
}

/** Every route of the control plane's `/v2` API, declared once: they validate requests and make the document. */
export function controlPlaneRoutes(deps: ControlPlaneApiDeps): DeclaredRoute[] {
  return [
    ...deploymentsRoutes(deps.deployments, deps.urls),
    ...revisionsRoutes(deps.deployments, deps.urls),
    ...authRoutes(deps.oauth),
    ...sourcesRoutes(deps.sourcesDir),
  ];
}

/** The control plane's OpenAPI document (the gateway serves it at `/v2/openapi.json`, Swagger UI at `/v2/docs`). */
export function controlPlaneOpenApi(routes: readonly DeclaredRoute[]): OpenApiDocument {
  return openApiDocument(
    {
      title: 'Control plane',
      version: '2.0.0',
      description: 'Deployments, their revisions and logs, OAuth providers (the LangSmith Deployment API, `/v2`), and uploaded project sources.',
      tags: [{ name: 'Deployments' }, { name: 'Revisions' }, { name: 'OAuth' }, { name: 'Sources' }],
    },
    routes,
  );
}
