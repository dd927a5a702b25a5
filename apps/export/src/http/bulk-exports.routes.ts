import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
import {
  bulkExportJson,
  cancelExport,
  createExport,
  createExportSchema,
  getExport,
  getExportRun,
  listExportRuns,
  listExports,
  listRunsOfSchedule,
  updateExportSchema,
  type ExportsDeps,
} from '@platform/export-exports';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

const scheduleRunsQuery = z.object({ source_bulk_export_id: z.string().min(1) });

/** `/bulk-exports`: exports and their runs. Mounted after the destination routes (`/bulk-exports/destinations`). */
export function bulkExportsRoutes(deps: ExportsDeps): Router {
  const router = Router();
  router.post('/bulk-exports', async (req, res) => {
    const body = parseRequest(createExportSchema, req.body ?? {});
    res.json(bulkExportJson(await createExport(deps, tenantOf(res), body)));
  });
  router.get('/bulk-exports', async (req, res) => {
    const { limit, offset } = parseRequest(listQuery, req.query, 'query');
    res.json((await listExports(deps, tenantOf(res), limit, offset)).map(bulkExportJson));
  });
  // Before `/bulk-exports/:exportId`, which would otherwise take "runs" for an id.
  router.get('/bulk-exports/runs', async (req, res) => {
    const { source_bulk_export_id } = parseRequest(scheduleRunsQuery, req.query, 'query');
    res.json(await listRunsOfSchedule(deps, tenantOf(res), source_bulk_export_id));
  });
  router.get('/bulk-exports/:exportId', async (req, res) => {
    res.json(bulkExportJson(await getExport(deps, tenantOf(res), req.params.exportId)));
  });
  router.patch('/bulk-exports/:exportId', async (req, res) => {
    parseRequest(updateExportSchema, req.body ?? {});
    res.json(bulkExportJson(await cancelExport(deps, tenantOf(res), req.params.exportId)));
  });
  router.get('/bulk-exports/:exportId/runs', async (req, res) => {
    res.json(await listExportRuns(deps, tenantOf(res), req.params.exportId));
  });
  router.get('/bulk-exports/:exportId/runs/:runId', async (req, res) => {
    res.json(await getExportRun(deps, tenantOf(res), req.params.exportId, req.params.runId));
  });
  return router;
}
