import { Router, type Request, type Response } from 'express';
import { bodyLimitOf, decodeBody, publicBaseUrlOf, readingBody, tenantOf } from '@platform/http-server';
import {
  batchFromJson,
  createFromJson,
  getRun,
  parseMultipartBatch,
  runIdFromPath,
  updateFromJson,
  withS3Urls,
  type AttachmentUrlDeps,
  type IngestRuns,
  type RunReader,
} from '@platform/tracing-runs';

export interface RunsIngestOptions {
  ingest: IngestRuns;
  runs: RunReader;
  /** Links to a run's attachments in `GET /runs/{id}`. */
  attachments: AttachmentUrlDeps;
  /** Largest attachment part (413 beyond); the whole body is held to the route's limit. */
  maxAttachmentBytes: number;
}

/**
 * A multipart body, decoded from its Content-Encoding (gzip, zstd, ...) and held to the route's limit as it streams;
 * each attachment part to `maxAttachmentBytes`.
 */
function multipartOf(req: Request, res: Response, maxAttachmentBytes: number) {
  const maxBytes = bodyLimitOf(res);
  const body = decodeBody(req, req.headers['content-encoding'], req.headers['content-length'], { maxBytes });
  return parseMultipartBatch(body, req.headers['content-type'], { maxPartBytes: maxBytes, maxAttachmentBytes });
}

/**
 * Run ingestion as the `langsmith` SDK calls it (mount at `/api/v1`): `POST /runs/multipart` (read here, streamed and
 * decoded; runs, feedback and attachments), `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}` (JSON, parsed by the
 * app's `jsonBody()` within the route's limit), all 202 `{}`, and `GET /runs/{id}` (with links to its attachments in
 * `s3_urls`).
 */
export function runsIngestRoutes(options: RunsIngestOptions): Router {
  const { ingest, maxAttachmentBytes } = options;
  const router = Router();

  router.post('/runs/multipart', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = await readingBody(req, () => multipartOf(req, res, maxAttachmentBytes));
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.post('/runs/batch', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = batchFromJson(req.body);
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.post('/runs', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = createFromJson(req.body);
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.patch('/runs/:runId', async (req, res) => {
    const tenantId = tenantOf(res);
    const id = runIdFromPath(req.params.runId);
    const batch = updateFromJson(id, req.body);
    // An update of a run this workspace never sent is a 404 here; inside batches it may precede its create.
    await ingest.ingest(tenantId, batch, { mustExist: [id] });
    res.status(202).json({});
  });

  router.get('/runs/:runId', async (req, res) => {
    const tenantId = tenantOf(res);
    const [run] = await withS3Urls(options.attachments, tenantId, [await getRun(options.runs, tenantId, req.params.runId)], publicBaseUrlOf(req));
    res.json(run);
  });
  return router;
}
