import { z } from 'zod';
import { tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  createDestination,
  createDestinationSchema,
  destinationJson,
  getDestination,
  listDestinations,
  updateDestinationCredentials,
  updateDestinationSchema,
  type DestinationsDeps,
} from '@platform/export-destinations';
import { destinationResponse } from './responses.schema';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

const tags = ['Destinations'];
const destinationPath = z.object({ destinationId: z.string() });
const destination = { 200: { description: 'The destination (never its credentials)', schema: destinationResponse } };
const noDestination = { 404: { description: 'No such destination' } };

/** `/api/v1/bulk-exports/destinations`: S3 destinations (credentials are write-only). */
export function destinationsRoutes(deps: DestinationsDeps): DeclaredRoute[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/v1/bulk-exports/destinations',
        summary: 'Create an S3 destination (its bucket is checked with a test write)',
        tags,
        body: createDestinationSchema,
        responses: destination,
      },
      async ({ body }, _req, res) => {
        res.json(destinationJson(await createDestination(deps, tenantOf(res), body)));
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v1/bulk-exports/destinations',
        summary: 'List destinations',
        tags,
        query: listQuery,
        responses: { 200: { description: 'The destinations', schema: z.array(destinationResponse) } },
      },
      async ({ query }, _req, res) => {
        res.json((await listDestinations(deps, tenantOf(res), query.limit, query.offset)).map(destinationJson));
      },
    ),
    route(
      { method: 'get', path: '/api/v1/bulk-exports/destinations/:destinationId', summary: 'Get a destination', tags, params: destinationPath, responses: { ...destination, ...noDestination } },
      async ({ params }, _req, res) => {
        res.json(destinationJson(await getDestination(deps, tenantOf(res), params.destinationId)));
      },
    ),
    route(
      {
        method: 'patch',
        path: '/api/v1/bulk-exports/destinations/:destinationId',
        summary: "Replace a destination's credentials",
        tags,
        params: destinationPath,
        body: updateDestinationSchema,
        responses: { ...destination, ...noDestination },
      },
      async ({ params, body }, _req, res) => {
        res.json(destinationJson(await updateDestinationCredentials(deps, tenantOf(res), params.destinationId, body)));
      },
    ),
  ];
}
