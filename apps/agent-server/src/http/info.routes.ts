import { Router } from 'express';

/** `GET /info`: what this Agent Server is and which optional features it serves. */
export function infoRoutes(options: { version: string; deploymentId?: string; tracing: boolean }): Router {
  const router = Router();
  router.get('/info', (_req, res) => {
    res.json({
      version: options.version,
      deployment_id: options.deploymentId ?? null,
      flags: { assistants: true, crons: true, langsmith: options.tracing, store: true, a2a: true, mcp: true },
    });
  });
  return router;
}
