import type { DestinationsDeps } from '@platform/export-destinations';
import type { ExportsDeps } from '@platform/export-exports';
import { openApiDocument, type DeclaredRoute, type OpenApiDocument } from '@platform/openapi';
import { bulkExportsRoutes } from './bulk-exports.routes';
import { destinationsRoutes } from './destinations.routes';

/** What the routes need (the app's deps extend it). */
export interface ExportApiDeps {
  exports: ExportsDeps;
  destinations: DestinationsDeps;
}

/** Every route of the bulk export API, declared once; destinations first (`/bulk-exports/destinations` is no export id). */
export function exportRoutes(deps: ExportApiDeps): DeclaredRoute[] {
  return [...destinationsRoutes(deps.destinations), ...bulkExportsRoutes(deps.exports)];
}

/** The export service's OpenAPI document (the gateway serves it at `/api/v1/bulk-exports/openapi.json`, Swagger UI beside it). */
export function exportOpenApi(routes: readonly DeclaredRoute[]): OpenApiDocument {
  return openApiDocument(
    {
      title: 'Bulk export',
      version: '1.0.0',
      description: 'Bulk exports of trace runs to S3 destinations as Parquet (LangSmith `/api/v1/bulk-exports`).',
      tags: [{ name: 'Bulk exports' }, { name: 'Destinations' }],
    },
    routes,
  );
}
