import { Transform, type Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { bodyLimitOf, decodeBody, publicBaseUrlOf, readingBody, tenantOf } from '@platform/http-server';
import {
  batchFromJson,
  createFromJson,
  feedbackPayloadSchema,
  getRun,
  parseMultipartBatch,
  runIdFromPath,
  runPayloadSchema,
  updateFromJson,
  withS3Urls,
  type AttachmentUrlDeps,
  type IngestRuns,
  type RunReader,
} from '@platform/tracing-runs';
import { route, type DeclaredRoute } from '@platform/openapi';
import { INGEST_LIMITS_HEADER, decodeIngestLimits, type IngestLimits } from '@platform/rate-limit';
import { accepted, runWithAttachmentsResponse } from './responses.schema';

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
function multipartOf(req: Request, res: Response, maxAttachmentBytes: number, source: Readable = req) {
  const maxBytes = bodyLimitOf(res);
  const body = decodeBody(source, req.headers['content-encoding'], req.headers['content-length'], { maxBytes });
  return parseMultipartBatch(body, req.headers['content-type'], { maxPartBytes: maxBytes, maxAttachmentBytes });
}

/** The request as read, counting its bytes as sent (for a chunked body, whose size no header announces). */
function counted(req: Request): { source: Readable; bytes: () => number } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  req.on('error', (err) => counter.destroy(err));
  return { source: req.pipe(counter), bytes: () => bytes };
}

/** The workspace's ingestion limits the gateway sent (it sets the header on every request it signs). */
const limitsOf = (req: Request): IngestLimits | undefined => decodeIngestLimits(req.headers[INGEST_LIMITS_HEADER]);

/** The body's announced size (0 when chunked: its runs are still counted). */
const announcedBytes = (req: Request): number => Number(req.headers['content-length']) || 0;

const tags = ['Runs'];
const runPath = z.object({ runId: z.string().describe('A run id (UUID)') });
const ingested = {
  202: { description: 'Accepted', schema: accepted },
  429: { description: "Past the workspace's ingest rate or stored-runs quota; `Retry-After` says when to try again" },
};

// The multipart parts, for the document: their JSON is validated by the parser with the run and feedback schemas.
const multipartParts = z
  .object({ 'post.{run_id}': runPayloadSchema, 'patch.{run_id}': runPayloadSchema, 'feedback.{id}': feedbackPayloadSchema })
  .partial()
  .catchall(z.string().describe('`attachment.{run_id}.{name}`: a file, with its content type'))
  .describe('Parts named `post.{run_id}`, `patch.{run_id}`, `feedback.{id}` (JSON) and `attachment.{run_id}.{name}` (files)');

/**
 * Run ingestion as the `langsmith` SDK calls it: `POST /runs/multipart` (read here, streamed and decoded; runs,
 * feedback and attachments), `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}` (JSON, parsed by the app's
 * `jsonBody()` within the route's limit, validated by the ingest use case), all 202 `{}`, and `GET /runs/{id}` (with
 * links to its attachments in `s3_urls`).
 */
export function runsIngestRoutes(options: RunsIngestOptions): DeclaredRoute[] {
  const { ingest, maxAttachmentBytes } = options;
  return [
    route(
      {
        method: 'post',
        path: '/api/v1/runs/multipart',
        summary: 'Ingest runs, feedback and attachments (multipart; gzip or zstd Content-Encoding)',
        tags,
        readsBody: { contentType: 'multipart/form-data', description: 'Streamed and decoded as it arrives', schema: multipartParts },
        responses: { ...ingested, 413: { description: 'Body or attachment over its limit' } },
      },
      async (_input, req, res) => {
        const tenantId = tenantOf(res);
        const limits = limitsOf(req);
        // Refused before its body is read: a flood past the limit costs little more than its headers.
        const announced = announcedBytes(req);
        ingest.admitBytes(tenantId, limits, announced);
        if (announced) {
          await ingest.ingest(tenantId, await readingBody(req, () => multipartOf(req, res, maxAttachmentBytes)), { limits });
        } else {
          // Chunked (the SDK streams its multipart bodies): charged once read, so the workspace's next bodies wait.
          const body = counted(req);
          const batch = await readingBody(req, () => multipartOf(req, res, maxAttachmentBytes, body.source));
          ingest.chargeBytes(tenantId, limits, body.bytes());
          await ingest.ingest(tenantId, batch, { limits });
        }
        res.status(202).json({});
      },
    ),
    route(
      {
        method: 'post',
        path: '/api/v1/runs/batch',
        summary: 'Ingest run creates and updates',
        tags,
        readsBody: {
          contentType: 'application/json',
          description: 'Validated by the ingest use case, item by item',
          schema: z.object({ post: z.array(runPayloadSchema).nullish(), patch: z.array(runPayloadSchema).nullish() }),
        },
        responses: ingested,
      },
      async (_input, req, res) => {
        const tenantId = tenantOf(res);
        const limits = limitsOf(req);
        ingest.admitBytes(tenantId, limits, announcedBytes(req));
        await ingest.ingest(tenantId, batchFromJson(req.body), { limits });
        res.status(202).json({});
      },
    ),
    route(
      {
        method: 'post',
        path: '/api/v1/runs',
        summary: 'Ingest one run (with its nested child_runs)',
        tags,
        readsBody: { contentType: 'application/json', description: 'Validated by the ingest use case', schema: runPayloadSchema },
        responses: ingested,
      },
      async (_input, req, res) => {
        const tenantId = tenantOf(res);
        const limits = limitsOf(req);
        ingest.admitBytes(tenantId, limits, announcedBytes(req));
        await ingest.ingest(tenantId, createFromJson(req.body), { limits });
        res.status(202).json({});
      },
    ),
    route(
      {
        method: 'patch',
        path: '/api/v1/runs/:runId',
        summary: 'Update a run',
        tags,
        params: runPath,
        readsBody: { contentType: 'application/json', description: 'Validated by the ingest use case', schema: runPayloadSchema },
        responses: { ...ingested, 404: { description: 'No such run in this workspace' } },
      },
      async ({ params }, req, res) => {
        const tenantId = tenantOf(res);
        const id = runIdFromPath(params.runId);
        const limits = limitsOf(req);
        ingest.admitBytes(tenantId, limits, announcedBytes(req));
        // An update of a run this workspace never sent is a 404 here; inside batches it may precede its create.
        await ingest.ingest(tenantId, updateFromJson(id, req.body), { mustExist: [id], limits });
        res.status(202).json({});
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/v1/runs/:runId',
        summary: 'Get a run, with links to its attachments',
        tags,
        params: runPath,
        responses: { 200: { description: 'The run', schema: runWithAttachmentsResponse }, 404: { description: 'No such run' } },
      },
      async ({ params }, req, res) => {
        const tenantId = tenantOf(res);
        const [run] = await withS3Urls(options.attachments, tenantId, [await getRun(options.runs, tenantId, params.runId)], publicBaseUrlOf(req));
        res.json(run);
      },
    ),
  ];
}
