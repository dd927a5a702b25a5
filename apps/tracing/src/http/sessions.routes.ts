import { z } from 'zod';
import { tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import type { TracingProjectsRepository } from '@platform/tracing-data-access';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  tracingProjectJson,
  updateProject,
} from '@platform/tracing-projects';
import { runTime } from '@platform/tracing-runs';
import { accepted, projectResponse } from './responses.schema';

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

const tags = ['Projects'];
const sessionPath = z.object({ sessionId: z.string().describe('A project id (UUID)') });
const project = { 200: { description: 'The project', schema: projectResponse } };
const noProject = { 404: { description: 'No such project' } };

/** Tracing projects, as the `langsmith` SDK calls them (`/sessions`). */
export function sessionsRoutes(store: TracingProjectsRepository): DeclaredRoute[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/v1/sessions',
        summary: 'Create a project (or, with upsert, return the one of that name)',
        tags,
        query: createQuery,
        body: createBody,
        responses: { ...project, 409: { description: 'A project of that name exists' } },
      },
      async ({ query, body }, _req, res) => {
        const created = await createProject(store, { tenantId: tenantOf(res), ...body }, { upsert: query.upsert });
        res.status(200).json(tracingProjectJson(created));
      },
    ),
    route(
      { method: 'get', path: '/api/v1/sessions', summary: 'List projects', tags, query: listQuery, responses: { 200: { description: 'The projects', schema: z.array(projectResponse) } } },
      async ({ query }, _req, res) => {
        const projects = await listProjects(store, {
          tenantId: tenantOf(res),
          name: query.name,
          nameContains: query.name_contains,
          ids: query.id,
          limit: query.limit,
          offset: query.offset,
        });
        res.json(projects.map(tracingProjectJson));
      },
    ),
    route(
      { method: 'get', path: '/api/v1/sessions/:sessionId', summary: 'Get a project', tags, params: sessionPath, responses: { ...project, ...noProject } },
      async ({ params }, _req, res) => {
        res.json(tracingProjectJson(await getProject(store, tenantOf(res), params.sessionId)));
      },
    ),
    route(
      {
        method: 'patch',
        path: '/api/v1/sessions/:sessionId',
        summary: 'Change a project (null fields are left alone)',
        tags,
        params: sessionPath,
        body: updateBody,
        responses: { ...project, ...noProject },
      },
      async ({ params, body }, _req, res) => {
        const tenantId = tenantOf(res);
        const updated = await updateProject(store, tenantId, params.sessionId, {
          name: body.name ?? undefined,
          description: body.description ?? undefined,
          extra: body.extra ?? undefined,
          endTime: body.end_time ? new Date(body.end_time) : undefined,
        });
        res.json(tracingProjectJson(updated));
      },
    ),
    route(
      {
        method: 'delete',
        path: '/api/v1/sessions/:sessionId',
        summary: 'Delete a project and its runs (asynchronously)',
        tags,
        params: sessionPath,
        responses: { 202: { description: 'Deletion accepted', schema: accepted }, ...noProject },
      },
      async ({ params }, _req, res) => {
        await deleteProject(store, tenantOf(res), params.sessionId);
        res.status(202).json({});
      },
    ),
  ];
}
