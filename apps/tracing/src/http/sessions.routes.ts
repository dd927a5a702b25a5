import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  tracingProjectJson,
  updateProject,
  type TracingProjectStore,
} from '@platform/tracing-projects';
import { runTime } from '@platform/tracing-runs';

const createBody = z.object({
  name: z.string().trim().min(1).max(400),
  description: z.string().nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

const createQuery = z.object({
  upsert: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});

// The SDK's updateProject sends every field, null for those it leaves alone.
const updateBody = z.object({
  name: z.string().trim().min(1).max(400).nullish(),
  description: z.string().nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
  end_time: runTime.nullish(),
});

const many = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

const listQuery = z.object({
  name: z.string().optional(),
  name_contains: z.string().optional(),
  id: many.pipe(z.array(z.string().uuid())).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Tracing projects, as the `langsmith` SDK calls them (`/sessions`). */
export function sessionsRoutes(store: TracingProjectStore): Router {
  const router = Router();
  router.post('/sessions', async (req, res) => {
    const { upsert } = parseRequest(createQuery, req.query, 'query');
    const body = parseRequest(createBody, req.body ?? {});
    const project = await createProject(store, { tenantId: tenantOf(res), ...body }, { upsert });
    res.status(200).json(tracingProjectJson(project));
  });
  router.get('/sessions', async (req, res) => {
    const query = parseRequest(listQuery, req.query, 'query');
    const projects = await listProjects(store, {
      tenantId: tenantOf(res),
      name: query.name,
      nameContains: query.name_contains,
      ids: query.id,
      limit: query.limit,
      offset: query.offset,
    });
    res.json(projects.map(tracingProjectJson));
  });
  router.get('/sessions/:sessionId', async (req, res) => {
    res.json(tracingProjectJson(await getProject(store, tenantOf(res), req.params.sessionId)));
  });
  router.patch('/sessions/:sessionId', async (req, res) => {
    const tenantId = tenantOf(res);
    const body = parseRequest(updateBody, req.body ?? {});
    const project = await updateProject(store, tenantId, req.params.sessionId, {
      name: body.name ?? undefined,
      description: body.description ?? undefined,
      extra: body.extra ?? undefined,
      endTime: body.end_time ? new Date(body.end_time) : undefined,
    });
    res.json(tracingProjectJson(project));
  });
  router.delete('/sessions/:sessionId', async (req, res) => {
    await deleteProject(store, tenantOf(res), req.params.sessionId);
    res.status(202).json({});
  });
  return router;
}
