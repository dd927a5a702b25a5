import { Router } from 'express';
import { z } from 'zod';
import { parseRequest } from '@platform/http-server';

// The reference's schema: a plain object, so keys it does not know (its own test helper sends `checkpoint`) are
// ignored, not refused.
const truncateBody = z.object({
  runs: z.boolean().optional(),
  threads: z.boolean().optional(),
  assistants: z.boolean().optional(),
  checkpointer: z.boolean().optional(),
  store: z.boolean().optional(),
});

export type TruncateRequest = z.infer<typeof truncateBody>;

/** Empties what the request names (the dev server's reset, as `langgraph dev` serves it). */
export type Truncate = (what: TruncateRequest) => Promise<void>;

/** `POST /internal/truncate` `{runs, threads, assistants, checkpointer, store}`: dev mode only (never mounted otherwise). */
export function devTruncateRoutes(truncate: Truncate): Router {
  const router = Router();
  router.post('/internal/truncate', async (req, res) => {
    await truncate(parseRequest(truncateBody, req.body ?? {}));
    res.json({ ok: true });
  });
  return router;
}
