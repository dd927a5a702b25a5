import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
import { bulkExportJson, getExport, listExports, type BulkExportStore } from '@platform/export-exports';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** `/bulk-exports` reads. Destinations, creation and the dispatcher come with the export feature. */
export function bulkExportsRoutes(store: BulkExportStore): Router {
  const router = Router();
  router.get('/bulk-exports', async (req, res) => {
    const { limit, offset } = parseRequest(listQuery, req.query, 'query');
    res.json((await listExports(store, tenantOf(res), limit, offset)).map(bulkExportJson));
  });
  router.get('/bulk-exports/:exportId', async (req, res) => {
    res.json(bulkExportJson(await getExport(store, tenantOf(res), req.params.exportId)));
  });
  return router;
}
