import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
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

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** `/bulk-exports/destinations`: S3 destinations (credentials are write-only). */
export function destinationsRoutes(deps: DestinationsDeps): Router {
  const router = Router();
  router.post('/bulk-exports/destinations', async (req, res) => {
    const body = parseRequest(createDestinationSchema, req.body ?? {});
    res.json(destinationJson(await createDestination(deps, tenantOf(res), body)));
  });
  router.get('/bulk-exports/destinations', async (req, res) => {
    const { limit, offset } = parseRequest(listQuery, req.query, 'query');
    res.json((await listDestinations(deps, tenantOf(res), limit, offset)).map(destinationJson));
  });
  router.get('/bulk-exports/destinations/:destinationId', async (req, res) => {
    res.json(destinationJson(await getDestination(deps, tenantOf(res), req.params.destinationId)));
  });
  router.patch('/bulk-exports/destinations/:destinationId', async (req, res) => {
    const body = parseRequest(updateDestinationSchema, req.body ?? {});
    res.json(destinationJson(await updateDestinationCredentials(deps, tenantOf(res), req.params.destinationId, body)));
  });
  return router;
}
