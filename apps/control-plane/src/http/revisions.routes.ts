import { z } from 'zod';
import { tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  deploymentJson,
  getRevision,
  interruptRevision,
  listRevisionLogs,
  listRevisions,
  listRevisionsQuery,
  redeployRevision,
  revisionJson,
  revisionLogsJson,
  revisionLogsQuery,
  type DeploymentUrlOptions,
  type DeploymentsContext,
} from '@platform/control-plane-deployments';
import { deploymentResponse, pageOf, revisionLogsResponse, revisionResponse } from './responses.schema';

const tags = ['Revisions'];
const deploymentPath = z.object({ deploymentId: z.string() });
const revisionPath = z.object({ deploymentId: z.string(), revisionId: z.string() });
const notFound = { 404: { description: 'No such deployment or revision' } };

/** `/v2/deployments/{id}/revisions`: list (latest first), get, its logs, redeploy, interrupt. */
export function revisionsRoutes(ctx: DeploymentsContext, urls: DeploymentUrlOptions): DeclaredRoute[] {
  const base = '/v2/deployments/:deploymentId/revisions';
  return [
    route(
      {
        method: 'get',
        path: base,
        summary: 'List revisions of a deployment, latest first',
        tags,
        params: deploymentPath,
        query: listRevisionsQuery,
        responses: { 200: { description: 'A page of revisions', schema: pageOf(revisionResponse) }, ...notFound },
      },
      async ({ params, query }, _req, res) => {
        const page = await listRevisions(ctx, tenantOf(res), params.deploymentId, { limit: query.limit, offset: query.offset, statuses: query.status });
        res.json({ resources: page.resources.map(revisionJson), offset: page.offset });
      },
    ),
    route(
      { method: 'get', path: `${base}/:revisionId`, summary: 'Get a revision', tags, params: revisionPath, responses: { 200: { description: 'The revision', schema: revisionResponse }, ...notFound } },
      async ({ params }, _req, res) => {
        res.json(revisionJson(await getRevision(ctx, tenantOf(res), params.deploymentId, params.revisionId)));
      },
    ),
    route(
      {
        method: 'get',
        path: `${base}/:revisionId/logs`,
        summary: "A page of a revision's build and deploy logs",
        tags,
        params: revisionPath,
        query: revisionLogsQuery,
        responses: { 200: { description: 'Log lines and the cursor of the next page', schema: revisionLogsResponse }, ...notFound },
      },
      async ({ params, query }, _req, res) => {
        res.json(revisionLogsJson(await listRevisionLogs(ctx, tenantOf(res), params.deploymentId, params.revisionId, query)));
      },
    ),
    route(
      {
        method: 'post',
        path: `${base}/:revisionId/redeploy`,
        summary: 'Deploy a revision again (as a new revision)',
        tags,
        params: revisionPath,
        responses: { 200: { description: 'The deployment', schema: deploymentResponse }, ...notFound },
      },
      async ({ params }, _req, res) => {
        res.json(deploymentJson(await redeployRevision(ctx, tenantOf(res), params.deploymentId, params.revisionId), urls));
      },
    ),
    route(
      {
        method: 'post',
        path: `${base}/:revisionId/interrupt`,
        summary: 'Stop a revision that is still building or deploying',
        tags,
        params: revisionPath,
        responses: { 200: { description: 'The revision', schema: revisionResponse }, ...notFound },
      },
      async ({ params }, _req, res) => {
        res.json(revisionJson(await interruptRevision(ctx, tenantOf(res), params.deploymentId, params.revisionId)));
      },
    ),
  ];
}
