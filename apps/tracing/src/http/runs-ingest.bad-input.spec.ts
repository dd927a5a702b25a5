import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Express } from 'express';
import request from 'supertest';
import { MAX_JSON_DEPTH } from '@platform/http-server';
import type { TracingDatabase } from '@platform/tracing-data-access';
import { zstdRawFrame } from '@platform/tracing-runs';
import { asTenant, startTestTracingApp } from './tracing-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const BOUNDARY = 'xyzBoundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** JSON text nested `depth` levels deep: `{"v": [[...[1]...]]}` (built as text: JSON.stringify overflows at 6,000). */
const nested = (depth: number) => `{"v": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
/** A run's JSON text with `inputs` (JSON text) in it. */
const runWith = (id: string, inputs: string) => `${JSON.stringify(rootRun(id)).slice(0, -1)}, "inputs": ${inputs}}`;

function multipart(parts: [string, string | Buffer][]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const rootRun = (id: string) => ({ id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z' });

/**
 * Bodies nested to and past MAX_JSON_DEPTH, and bytes that are not UTF-8, on every ingest route and encoding: refused
 * while the body is parsed (nothing stored), and what is under the limit stored and read back as sent.
 */
describe('run ingest: nesting, UTF-8 and batch shape (PGlite)', () => {
  let app: Express;
  let db: TracingDatabase;
  const tenant = randomUUID();
  const send = (method: 'post' | 'patch', path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    request(app)[method](path).set(asTenant(tenant)).set({ 'content-type': 'application/json', ...headers }).serialize((b) => b).send(body);
  const readRun = (id: string) => request(app).get(`/api/v1/runs/${id}`).set(asTenant(tenant));

  beforeAll(async () => {
    ({ app, db } = await startTestTracingApp({ bodyLimits: { multipart: 1 << 20, jsonIngest: 1 << 20, other: 64 * 1024 } }));
  });
  afterAll(() => db?.close());

  // Each way of sending one run whose body nests `depth` levels (the run's `inputs` nest depth - 1 of them, or
  // depth - 3 inside the batch's list).
  const senders: [string, (id: string, depth: number) => Promise<request.Response>][] = [
    ['POST /runs', (id, depth) => send('post', '/api/v1/runs', runWith(id, nested(depth - 1)))],
    ['POST /runs gzip', (id, depth) => send('post', '/api/v1/runs', gzipSync(runWith(id, nested(depth - 1))), { 'content-encoding': 'gzip' })],
    ['POST /runs/batch', (id, depth) => send('post', '/api/v1/runs/batch', `{"post": [${runWith(id, nested(depth - 3))}]}`)],
    [
      'POST /runs/batch zstd',
      (id, depth) => send('post', '/api/v1/runs/batch', zstdRawFrame(Buffer.from(`{"post": [${runWith(id, nested(depth - 3))}]}`)), { 'content-encoding': 'zstd' }),
    ],
    [
      'POST /runs/multipart (inputs part)',
      (id, depth) => send('post', '/api/v1/runs/multipart', multipart([[`post.${id}`, JSON.stringify(rootRun(id))], [`post.${id}.inputs`, nested(depth)]]), { 'content-type': MULTIPART }),
    ],
    [
      'POST /runs/multipart gzip',
      (id, depth) =>
        send('post', '/api/v1/runs/multipart', gzipSync(multipart([[`post.${id}`, runWith(id, nested(depth - 1))]])), {
          'content-type': MULTIPART,
          'content-encoding': 'gzip',
        }),
    ],
  ];

  it.each(senders)('%s: takes bodies nested up to MAX_JSON_DEPTH and reads them back, refuses deeper with 422 naming the limit', async (_how, sendRun) => {
    for (const depth of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH]) {
      const id = randomUUID();
      const res = await sendRun(id, depth);
      expect([depth, res.status, res.body]).toEqual([depth, 202, {}]);
      const run = await readRun(id).expect(200);
      expect(run.body.inputs).toBeDefined();
      expect(JSON.stringify(run.body.inputs)).toMatch(new RegExp(`\\[{${MAX_JSON_DEPTH - 5}}1\\]`));
    }
    for (const depth of [MAX_JSON_DEPTH + 1, 6_000]) {
      const id = randomUUID();
      const res = await sendRun(id, depth);
      expect([depth, res.status]).toEqual([depth, 422]);
      expect(res.body.detail).toEqual([expect.objectContaining({ type: 'json_invalid', msg: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels (the limit)`) })]);
      await readRun(id).expect(404);
    }
  });

  it('PATCH /runs/{id}: the same limit', async () => {
    const id = randomUUID();
    await send('post', '/api/v1/runs', JSON.stringify(rootRun(id))).expect(202);
    await send('patch', `/api/v1/runs/${id}`, `{"outputs": ${nested(MAX_JSON_DEPTH - 1)}}`).expect(202);
    const refused = await send('patch', `/api/v1/runs/${id}`, `{"outputs": ${nested(MAX_JSON_DEPTH)}}`).expect(422);
    expect(refused.body.detail[0].msg).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it('refuses bodies and multipart parts that are not UTF-8 with 400 naming the byte offset, storing nothing', async () => {
    for (const offset of [1, 15, 40, 80]) {
      const id = randomUUID();
      const run = Buffer.from(JSON.stringify({ ...rootRun(id), inputs: { text: 'x'.repeat(100) } }));
      const bad = (bytes: Buffer) => Buffer.concat([bytes.subarray(0, offset), Buffer.from([0xc3, 0x28]), bytes.subarray(offset)]);
      const answers = [
        await send('post', '/api/v1/runs', bad(run)),
        await send('post', '/api/v1/runs', gzipSync(bad(run)), { 'content-encoding': 'gzip' }),
        await send('post', '/api/v1/runs/batch', Buffer.concat([Buffer.from('{"post": ['), bad(run), Buffer.from(']}')])),
        await send('post', '/api/v1/runs/multipart', multipart([[`post.${id}`, bad(run)]]), { 'content-type': MULTIPART }),
        await send('post', '/api/v1/runs/multipart', multipart([[`post.${id}`, JSON.stringify(rootRun(id))], [`post.${id}.inputs`, bad(Buffer.from('{"text": "' + 'y'.repeat(100) + '"}'))]]), { 'content-type': MULTIPART }),
      ];
      const batchOffset = offset + '{"post": ['.length;
      expect(answers.map((r) => [r.status, r.body.detail])).toEqual([
        [400, expect.stringMatching(new RegExp(`^Request body is not valid UTF-8: byte 0xC3 at offset ${offset} `))],
        [400, expect.stringMatching(new RegExp(`^Request body is not valid UTF-8: byte 0xC3 at offset ${offset} `))],
        [400, expect.stringMatching(new RegExp(`^Request body is not valid UTF-8: byte 0xC3 at offset ${batchOffset} `))],
        [400, expect.stringMatching(new RegExp(`^Part post\\.${id} is not valid UTF-8: byte 0xC3 at offset ${offset} `))],
        [400, expect.stringMatching(new RegExp(`^Part post\\.${id}\\.inputs is not valid UTF-8: byte 0xC3 at offset ${offset} `))],
      ]);
      await readRun(id).expect(404);
    }
  });

  it('answers 422 for a /runs/batch body that is not a batch, and takes {"post": [], "patch": []}', async () => {
    for (const body of ['[]', '{"foo": 1}', '{}', '"text"', '[{"post": []}]']) {
      const res = await send('post', '/api/v1/runs/batch', body);
      expect([body, res.status]).toEqual([body, 422]);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: expect.any(String) })]));
    }
    const missing = await send('post', '/api/v1/runs/batch', '{"foo": 1}');
    expect(missing.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'post'], type: 'missing' }), expect.objectContaining({ loc: ['body', 'patch'], type: 'missing' })]);
    for (const body of ['{"post": [], "patch": []}', '{"post": []}', '{"patch": null}']) await send('post', '/api/v1/runs/batch', body).expect(202, {});
  });
});
