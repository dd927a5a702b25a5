import { z } from 'zod';
import { identityOf, tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';
import {
  compact,
  createDeployment,
  createDeploymentBody,
  deleteDeployment,
  deploymentJson,
  getDeployment,
  listDeployments,
  listDeploymentsQuery,
  patchDeploymentBody,
  updateDeployment,
  type DeploymentUrlOptions,
  type DeploymentsContext,
} from '@platform/control-plane-deployments';
import type { DeploymentSource } from '@platform/control-plane-data-access';
import { checkKubernetesShapes } from './kubernetes-shapes.check';
import { deploymentResponse, pageOf } from './responses.schema';

const withoutSha = (config: Record<string, unknown>) => {
  const { repo_commit_sha: _ignored, ...rest } = config;
  return rest;
};

const tags = ['Deployments'];
const deploymentPath = z.object({ deploymentId: z.string() });
const found = { 200: { description: 'The deployment', schema: deploymentResponse }, 404: { description: 'No such deployment' } };

/** `/v2/deployments`: list, create (201), get, patch, delete (204, asynchronous). */
export function deploymentsRoutes(ctx: DeploymentsContext, urls: DeploymentUrlOptions): DeclaredRoute[] {
  const json = (d: Parameters<typeof deploymentJson>[0]) => deploymentJson(d, urls);
  return [
    route(
      { method: 'get', path: '/v2/deployments', summary: 'List deployments', tags, query: listDeploymentsQuery, responses: { 200: { description: 'A page of deployments', schema: pageOf(deploymentResponse) } } },
      async ({ query }, _req, res) => {
        const page = await listDeployments(ctx.store, {
          tenantId: tenantOf(res),
          limit: query.limit,
          offset: query.offset,
          nameContains: query.name_contains,
          statuses: query.status,
          deploymentType: query.deployment_type,
          ids: query.deployment_ids,
        });
        res.json({ resources: page.resources.map(json), offset: page.offset });
      },
    ),
    route(
      {
        method: 'post',
        path: '/v2/deployments',
        summary: 'Create a deployment (its first revision builds and deploys asynchronously)',
        tags,
        body: createDeploymentBody,
        responses: { 201: { description: 'The deployment', schema: deploymentResponse }, 409: { description: 'A deployment of that name exists' } },
      },
      async ({ body }, _req, res) => {
        const sourceConfig = compact(body.source_config);
        await checkKubernetesShapes(sourceConfig.resource_spec as Record<string, unknown> | undefined, ['source_config', 'resource_spec']);
        const { deployment } = await createDeployment(ctx, {
          tenantId: tenantOf(res),
          organizationId: identityOf(res).organizationId || null,
          name: body.name,
          source: body.source as DeploymentSource,
          sourceConfig,
          sourceRevisionConfig: withoutSha(compact(body.source_revision_config)),
          secrets: body.secrets,
        });
        res.status(201).json(json(deployment));
      },
    ),
    route({ method: 'get', path: '/v2/deployments/:deploymentId', summary: 'Get a deployment', tags, params: deploymentPath, responses: found }, async ({ params }, _req, res) => {
      res.json(json(await getDeployment(ctx.store, tenantOf(res), params.deploymentId)));
    }),
    route(
      {
        method: 'patch',
        path: '/v2/deployments/:deploymentId',
        summary: 'Change a deployment (a new revision when its configuration changes)',
        tags,
        params: deploymentPath,
        body: patchDeploymentBody,
        responses: found,
      },
      async ({ params, body }, _req, res) => {
        const sourceConfig = body.source_config ? compact(body.source_config) : undefined;
        await checkKubernetesShapes(sourceConfig?.resource_spec as Record<string, unknown> | undefined, ['source_config', 'resource_spec']);
        const deployment = await updateDeployment(ctx, tenantOf(res), params.deploymentId, {
          name: body.name ?? undefined,
          source: body.source ?? undefined,
          sourceConfig,
          sourceRevisionConfig: body.source_revision_config ? withoutSha(compact(body.source_revision_config)) : undefined,
          secrets: body.secrets ?? undefined,
        });
        res.json(json(deployment));
      },
    ),
    route(
      {
        method: 'delete',
        path: '/v2/deployments/:deploymentId',
        summary: 'Delete a deployment (its resources are removed asynchronously)',
        tags,
        params: deploymentPath,
        responses: { 204: { description: 'Deletion started' }, 404: { description: 'No such deployment' } },
      },
      async ({ params }, _req, res) => {
        await deleteDeployment(ctx, tenantOf(res), params.deploymentId);
        res.status(204).end();
      },
    ),
  ];
}
