import { z } from 'zod';
import { tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
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
import { bulkExportResponse, exportRunResponse } from './responses.schema';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

const scheduleRunsQuery = z.object({ source_bulk_export_id: z.string().min(1) });

const tags = ['Bulk exports'];
const exportPath = z.object({ exportId: z.string() });
const exported = { 200: { description: 'The export', schema: bulkExportResponse } };
const noExport = { 404: { description: 'No such export' } };

/** `/api/v1/bulk-exports`: exports and their runs. Declared after the destination routes (`/bulk-exports/destinations`). */
export function bulkExportsRoutes(deps: ExportsDeps): DeclaredRoute[] {
  return [
    route(
      { method: 'post', path: '/api/v1/bulk-exports', summary: 'Create an export (or, with interval_hours, a schedule)', tags, body: createExportSchema, responses: exported },
      async ({ body }, _req, res) => {
        res.json(bulkExportJson(await createExport(deps, tenantOf(res), body)));
      },
    ),
    route(
      { method: 'get', path: '/api/v1/bulk-exports', summary: 'List exports', tags, query: listQuery, responses: { 200: { description: 'The exports', schema: z.array(bulkExportResponse) } } },
      async ({ query }, _req, res) => {
        res.json((await listExports(deps, tenantOf(res), query.limit, query.offset)).map(bulkExportJson));
      },
    ),
    // Before `/bulk-exports/:exportId`, which would otherwise take "runs" for an id.
    route(
      {
        method: 'get',
        path: '/api/v1/bulk-exports/runs',
        summary: 'The runs of every export a schedule spawned',
        tags,
        query: scheduleRunsQuery,
        responses: { 200: { description: 'The runs', schema: z.array(exportRunResponse) }, ...noExport },
      },
      async ({ query }, _req, res) => {
        res.json(await listRunsOfSchedule(deps, tenantOf(res), query.source_bulk_export_id));
      },
    ),
    route({ method: 'get', path: '/api/v1/bulk-exports/:exportId', summary: 'Get an export', tags, params: exportPath, responses: { ...exported, ...noExport } }, async ({ params }, _req, res) => {
      res.json(bulkExportJson(await getExport(deps, tenantOf(res), params.exportId)));
    }),
    route(
      {
        method: 'patch',
        path: '/api/v1/bulk-exports/:exportId',
        summary: 'Cancel an export (the only change there is)',
        tags,
        params: exportPath,
        body: updateExportSchema,
        responses: { ...exported, ...noExport },
      },
      async ({ params }, _req, res) => {
        res.json(bulkExportJson(await cancelExport(deps, tenantOf(res), params.exportId)));
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v1/bulk-exports/:exportId/runs',
        summary: "An export's runs (one per date partition)",
        tags,
        params: exportPath,
        responses: { 200: { description: 'The runs', schema: z.array(exportRunResponse) }, ...noExport },
      },
      async ({ params }, _req, res) => {
        res.json(await listExportRuns(deps, tenantOf(res), params.exportId));
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v1/bulk-exports/:exportId/runs/:runId',
        summary: 'Get an export run',
        tags,
        params: z.object({ exportId: z.string(), runId: z.string() }),
        responses: { 200: { description: 'The run', schema: exportRunResponse }, 404: { description: 'No such export or run' } },
      },
      async ({ params }, _req, res) => {
        res.json(await getExportRun(deps, tenantOf(res), params.exportId, params.runId));
      },
    ),
  ];
}
