import { Router } from 'express';

/** `GET /info`: what this Agent Server is and which endpoint groups it serves. */
export function infoRoutes(options: { version: string; deploymentId?: string }): Router {
  const router = Router();
  router.get('/info', (_req, res) => {
    res.json({
      version: options.version,
      deployment_id: options.deploymentId ?? null,
      flags: { assistants: false, crons: false, langsmith: false, store: false, a2a: false, mcp: false },
    });
  });
  return router;
}
