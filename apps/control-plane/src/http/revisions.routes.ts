import { Router } from 'express';
import { parseRequest, tenantOf } from '@platform/http-server';
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

/** `/v2/deployments/{id}/revisions`: list (latest first), get, its logs, redeploy, interrupt. */
export function revisionsRoutes(ctx: DeploymentsContext, urls: DeploymentUrlOptions): Router {
  const router = Router();
  router.get('/deployments/:deploymentId/revisions', async (req, res) => {
    const query = parseRequest(listRevisionsQuery, req.query, 'query');
    const page = await listRevisions(ctx, tenantOf(res), req.params.deploymentId, { limit: query.limit, offset: query.offset, statuses: query.status });
    res.json({ resources: page.resources.map(revisionJson), offset: page.offset });
  });
  router.get('/deployments/:deploymentId/revisions/:revisionId', async (req, res) => {
    res.json(revisionJson(await getRevision(ctx, tenantOf(res), req.params.deploymentId, req.params.revisionId)));
  });
  router.get('/deployments/:deploymentId/revisions/:revisionId/logs', async (req, res) => {
    const query = parseRequest(revisionLogsQuery, req.query, 'query');
    res.json(revisionLogsJson(await listRevisionLogs(ctx, tenantOf(res), req.params.deploymentId, req.params.revisionId, query)));
  });
  router.post('/deployments/:deploymentId/revisions/:revisionId/redeploy', async (req, res) => {
    res.json(deploymentJson(await redeployRevision(ctx, tenantOf(res), req.params.deploymentId, req.params.revisionId), urls));
  });
  router.post('/deployments/:deploymentId/revisions/:revisionId/interrupt', async (req, res) => {
    res.json(revisionJson(await interruptRevision(ctx, tenantOf(res), req.params.deploymentId, req.params.revisionId)));
  });
  return router;
}
