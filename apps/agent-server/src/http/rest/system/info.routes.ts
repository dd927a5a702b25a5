import { Router } from 'express';
import { LANGGRAPH_VERSION } from '@platform/agent-server-graphs';

/**
 * `GET /info`: what this Agent Server is and which optional features it serves, with the flags LangGraph's JS API
 * server announces (`crons` true: this server runs them; `langsmith_tracing_replicas`: a run's
 * `langsmith_tracer.project_name` gets a copy of its trace, the deployment's project the other).
 */
export function infoRoutes(options: { version: string; deploymentId?: string; tracing: boolean }): Router {
  const router = Router();
  router.get('/info', (_req, res) => {
    res.json({
      version: options.version,
      langgraph_js_version: LANGGRAPH_VERSION,
      context: 'js',
      deployment_id: options.deploymentId ?? null,
      flags: { assistants: true, crons: true, langsmith: options.tracing, langsmith_tracing_replicas: true },
    });
  });
  return router;
}
