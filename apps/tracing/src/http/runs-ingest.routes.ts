import { Router, type Request, type Response } from 'express';
import { tenantOf } from '@platform/http-server';
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
  type IngestRuns,
  type RunReader,
} from '@platform/tracing-runs';

export interface RunsIngestOptions {
  ingest: IngestRuns;
  runs: RunReader;
  /** Largest request body, as sent and once decoded (413 beyond). */
  maxBodyBytes: number;
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
 * their own bodies, streamed and decoded): `POST /runs/multipart`, `POST /runs/batch`, `POST /runs`,
 * `PATCH /runs/{id}` (all 202 `{}`), and `GET /runs/{id}`.
 */
export function runsIngestRoutes(options: RunsIngestOptions): Router {
  const { ingest, maxBodyBytes } = options;
  const router = Router();

  router.post('/runs/multipart', async (req, res) => {
    const tenantId = tenantOf(res);
    const batch = await readingBody(req, res, () =>
      parseMultipartBatch(bodyOf(req, maxBodyBytes), req.headers['content-type'], { maxPartBytes: maxBodyBytes }),
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
    res.json(await getRun(options.runs, tenantOf(res), req.params.runId));
  });
  return router;
}
