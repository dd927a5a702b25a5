import { Router, type Request, type Response } from 'express';
import { publicBaseUrlOf, tenantOf } from '@platform/http-server';
import {
  batchFromJson,
  createFromJson,
  decodeBody,
  getRun,
  parseJson,
  parseMultipartBatch,
  readAll,
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
  /** Largest request body, as sent and once decoded (413 beyond). */
  maxBodyBytes: number;
  /** Largest attachment (413 beyond). */
  maxAttachmentBytes: number;
}

/** The request body, decoded from its Content-Encoding (gzip, zstd, ...) and size-limited. */
function bodyOf(req: Request, maxBytes: number) {
  return decodeBody(req, req.headers['content-encoding'], req.headers['content-length'], { maxBytes });
}

async function jsonBody(req: Request, maxBytes: number): Promise<unknown> {
  return parseJson((await readAll(bodyOf(req, maxBytes))).toString('utf8'));
}

/**
 * After a failed read the rest of the body is discarded, and the connection closed once answered: the client may
 * still be sending a body we will not read.
 */
async function readingBody<T>(req: Request, res: Response, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!req.complete) {
      req.unpipe();
      req.resume();
      res.setHeader('Connection', 'close');
    }
    throw err;
  }
}

/**
 * Run ingestion as the `langsmith` SDK calls it (mount at `/api/v1`, before any JSON body parser: these routes read
 * their own bodies, streamed and decoded): `POST /runs/multipart` (runs, feedback and attachments), `POST /runs/batch`,
 * `POST /runs`, `PATCH /runs/{id}` (all 202 `{}`), and `GET /runs/{id}` (with links to its attachments in `s3_urls`).
 */
export function runsIngestRoutes(options: RunsIngestOptions): Router {
  const { ingest, maxBodyBytes, maxAttachmentBytes } = options;
  const router = Router();

  router.post('/runs/multipart', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = await readingBody(req, res, () =>
      parseMultipartBatch(bodyOf(req, maxBodyBytes), req.headers['content-type'], { maxPartBytes: maxBodyBytes, maxAttachmentBytes }),
    );
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.post('/runs/batch', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = batchFromJson(await readingBody(req, res, () => jsonBody(req, maxBodyBytes)));
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.post('/runs', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = createFromJson(await readingBody(req, res, () => jsonBody(req, maxBodyBytes)));
    await ingest.ingest(tenantId, batch);
    res.status(202).json({});
  });

  router.patch('/runs/:runId', async (req, res) => {
    const tenantId = tenantOf(res);
    const id = runIdFromPath(req.params.runId);
    const batch = updateFromJson(id, await readingBody(req, res, () => jsonBody(req, maxBodyBytes)));
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
