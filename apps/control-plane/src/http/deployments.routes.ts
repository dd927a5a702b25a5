import { Router } from 'express';
import { z } from 'zod';
import { parseRequest, tenantOf } from '@platform/http-server';
import { deploymentJson, getDeployment, listDeployments, type DeploymentStore } from '@platform/control-plane-deployments';

const csv = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .optional();

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  name_contains: z.string().optional(),
  status: csv,
  deployment_type: z.enum(['dev_free', 'dev', 'prod']).optional(),
  deployment_ids: csv.pipe(z.array(z.string().uuid()).optional()),
});

/** `/v2/deployments` reads. Creating and changing deployments comes with the reconciler. */
export function deploymentsRoutes(store: DeploymentStore): Router {
  const router = Router();
  router.get('/deployments', async (req, res) => {
    const query = parseRequest(listQuery, req.query, 'query');
    const page = await listDeployments(store, {
      tenantId: tenantOf(res),
      limit: query.limit,
      offset: query.offset,
      nameContains: query.name_contains,
      statuses: query.status,
      deploymentType: query.deployment_type,
      ids: query.deployment_ids,
    });
    res.json({ resources: page.resources.map(deploymentJson), offset: page.offset });
  });
  router.get('/deployments/:deploymentId', async (req, res) => {
    res.json(deploymentJson(await getDeployment(store, tenantOf(res), req.params.deploymentId)));
  });
  return router;
}
