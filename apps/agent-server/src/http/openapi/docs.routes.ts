import type { Router } from 'express';
import { docsRoutes as openApiDocsRoutes, type DeclaredRoute } from '@platform/openapi';
import { agentServerOpenApi } from './openapi';

/**
 * The paths these routes serve, for `createHttpApp`'s `publicPaths`: a browser opening /docs sends no gateway
 * identity, and the reference needs no key (Try it out asks for one).
 */
export { isDocsPath } from '@platform/openapi';

/**
 * `GET /openapi.json` (OpenAPI 3.1) and `GET /docs` (Swagger UI on it). Every URL is relative: behind the gateway
 * the server lives under `/deployments/{id}`, which it never sees, so "Try it out" aims at that prefix.
 */
export function docsRoutes(options: { version?: string; routes: readonly DeclaredRoute[] }): Router {
  return openApiDocsRoutes(agentServerOpenApi({ version: options.version ?? '0.0.0', routes: options.routes }), { title: 'Agent Server API', server: 'prefix' });
}
