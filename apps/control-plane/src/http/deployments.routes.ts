import { Router } from 'express';
import { identityOf, parseRequest, tenantOf } from '@platform/http-server';
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
  type DeploymentSource,
  type DeploymentUrlOptions,
  type DeploymentsContext,
} from '@platform/control-plane-deployments';
import { checkKubernetesShapes } from './kubernetes-shapes.check';

const withoutSha = (config: Record<string, unknown>) => {
  const { repo_commit_sha: _ignored, ...rest } = config;
  return rest;
};

/** `/v2/deployments`: list, create (201), get, patch, delete (204, asynchronous). */
export function deploymentsRoutes(ctx: DeploymentsContext, urls: DeploymentUrlOptions): Router {
  const router = Router();
  const json = (d: Parameters<typeof deploymentJson>[0]) => deploymentJson(d, urls);

  router.get('/deployments', async (req, res) => {
    const query = parseRequest(listDeploymentsQuery, req.query, 'query');
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
  });

  router.post('/deployments', async (req, res) => {
    const body = parseRequest(createDeploymentBody, req.body ?? {});
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
  });

  router.get('/deployments/:deploymentId', async (req, res) => {
    res.json(json(await getDeployment(ctx.store, tenantOf(res), req.params.deploymentId)));
  });

  router.patch('/deployments/:deploymentId', async (req, res) => {
    const body = parseRequest(patchDeploymentBody, req.body ?? {});
    const sourceConfig = body.source_config ? compact(body.source_config) : undefined;
    await checkKubernetesShapes(sourceConfig?.resource_spec as Record<string, unknown> | undefined, ['source_config', 'resource_spec']);
    const deployment = await updateDeployment(ctx, tenantOf(res), req.params.deploymentId, {
      name: body.name ?? undefined,
      source: body.source ?? undefined,
      sourceConfig,
      sourceRevisionConfig: body.source_revision_config ? withoutSha(compact(body.source_revision_config)) : undefined,
      secrets: body.secrets ?? undefined,
    });
    res.json(json(deployment));
  });

  router.delete('/deployments/:deploymentId', async (req, res) => {
    await deleteDeployment(ctx, tenantOf(res), req.params.deploymentId);
    res.status(204).end();
  });
  return router;
}
