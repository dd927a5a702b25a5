import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Express } from 'express';
import request from 'supertest';
import type { TracingDatabase } from '@platform/tracing-data-access';
import { zstdRawFrame } from '@platform/tracing-runs';
import { asTenant, startTestTracingApp } from './tracing-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const BOUNDARY = 'xyzBoundary';
const segment = (id: string) => `20240501T120000000001Z${id}`;

function multipart(parts: [string, unknown][]): Buffer {
  const text = parts.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: application/json\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`);
  return Buffer.from(`${text.join('')}--${BOUNDARY}--\r\n`);
}

const rootRun = (id: string, extra: Record<string, unknown> = {}) => ({ id, trace_id: id, dotted_order: segment(id), name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z', ...extra });

describe('run ingest routes (PGlite)', () => {
  let app: Express;
  let db: TracingDatabase;
  const tenant = randomUUID();
  const post = (path: string) => request(app).post(path).set(asTenant(tenant));

  beforeAll(async () => {
    // Each kind of route its own limit, as in production (64 MiB multipart, 25 MiB JSON ingest, 1 MiB the rest).
    ({ app, db } = await startTestTracingApp({ bodyLimits: { multipart: 256 * 1024, jsonIngest: 64 * 1024, other: 16 * 1024 } }));
  });
  afterAll(() => db?.close());

  it('announces multipart ingestion with gzip and zstd in /info', async () => {
    const res = await request(app).get('/api/v1/info').set(asTenant(tenant)).expect(200);
    expect(res.body).toMatchObject({
      batch_ingest_config: { use_multipart_endpoint: true, size_limit: 100, size_limit_bytes: 1000 },
      instance_flags: { gzip_body_enabled: true, zstd_compression_enabled: true },
    });
  });

  it('ingests multipart bodies as sent, gzip- or zstd-compressed, and reads runs back', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const body = (id: string) => multipart([[`post.${id}`, rootRun(id)], [`post.${id}.inputs`, { q: id }]]);
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    await post('/api/v1/runs/multipart').set('content-type', type).send(body(ids[0])).expect(202, {});
    await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'gzip' }).send(gzipSync(body(ids[1]))).expect(202);
    await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'zstd' }).send(zstdRawFrame(body(ids[2]))).expect(202);
    for (const id of ids) {
      const run = await request(app).get(`/api/v1/runs/${id.toUpperCase()}`).set(asTenant(tenant)).expect(200);
      expect(run.body).toMatchObject({ id, inputs: { q: id }, is_root: true, parent_run_ids: [], status: 'pending', total_tokens: 0 });
    }
  });

  it('ingests /runs/batch, /runs and PATCH /runs/{id}', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await post('/api/v1/runs/batch').send({ post: [rootRun(a)], patch: [{ ...rootRun(a), outputs: { ok: 1 }, end_time: 1714564801000 }] }).expect(202, {});
    await post('/api/v1/runs').send(rootRun(b)).expect(202, {});
    await request(app).patch(`/api/v1/runs/${b}`).set(asTenant(tenant)).send({ error: 'failed', end_time: '2024-05-01T12:00:01Z' }).expect(202, {});
    expect((await request(app).get(`/api/v1/runs/${a}`).set(asTenant(tenant))).body).toMatchObject({ status: 'success', outputs: { ok: 1 } });
    expect((await request(app).get(`/api/v1/runs/${b}`).set(asTenant(tenant))).body).toMatchObject({ status: 'error', error: 'failed' });
  });

  it('answers 404 for runs unknown to the workspace, and 422 for ids that are not UUIDs', async () => {
    const id = randomUUID();
    await post('/api/v1/runs').send(rootRun(id)).expect(202);
    await request(app).get(`/api/v1/runs/${id}`).set(asTenant(randomUUID())).expect(404);
    await request(app).patch(`/api/v1/runs/${id}`).set(asTenant(randomUUID())).send({ end_time: 1714564801000 }).expect(404);
    await request(app).patch(`/api/v1/runs/${randomUUID()}`).set(asTenant(tenant)).send({ end_time: 1714564801000 }).expect(404);
    const bad = await request(app).get('/api/v1/runs/123').set(asTenant(tenant)).expect(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'run_id'], type: 'uuid_parsing' });
    await request(app).patch('/api/v1/runs/123').set(asTenant(tenant)).send({}).expect(422);
  });

  it('answers 4xx naming what is wrong, never 500', async () => {
    const id = randomUUID();
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    const badPart = await post('/api/v1/runs/multipart').set('content-type', type).send(multipart([[`post.${id}`, '{"name": ']])).expect(422);
    expect(badPart.body.detail[0]).toMatchObject({ loc: ['body', `post.${id}`], type: 'json_invalid' });
    const badTime = await post('/api/v1/runs/batch').send({ post: [rootRun(id, { start_time: 'noon' })] }).expect(422);
    expect(badTime.body.detail[0]).toMatchObject({ loc: ['body', 'post', 0, 'start_time'], type: 'datetime_parsing' });
    const badJson = await post('/api/v1/runs/batch').set('content-type', 'application/json').send('{"post": [').expect(422);
    expect(badJson.body.detail[0]).toMatchObject({ type: 'json_invalid' });
    await post('/api/v1/runs/batch').send({ post: {} }).expect(422);
    await post('/api/v1/runs/multipart').set('content-type', 'multipart/form-data').send('x').expect(400);
    await post('/api/v1/runs/multipart').set('content-type', type).send(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="post.${id}"\r\n\r\n{}`).expect(400);
    const badGzip = await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'gzip' }).send(Buffer.from('not gzip')).expect(400);
    expect(badGzip.body).toEqual({ detail: expect.stringContaining('gzip') });
    await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'zstd' }).send(Buffer.from('not zstd')).expect(400);
    await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'compress' }).send(Buffer.from('x')).expect(415);
    const unknownProject = await post('/api/v1/runs').send(rootRun(randomUUID(), { session_id: randomUUID() })).expect(404);
    expect(unknownProject.body.detail).toContain('Tracing project');
  });

  it('answers 413 for bodies over their route’s limit, compressed or not, naming the limit', async () => {
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    const huge = multipart([[`post.${randomUUID()}`, { name: 'x'.repeat(300 * 1024) }]]);
    const refused = await post('/api/v1/runs/multipart').set('content-type', type).send(huge).expect(413);
    expect(refused.body).toEqual({ detail: 'Request body is larger than 262144 bytes' });
    await post('/api/v1/runs/multipart').set({ 'content-type': type, 'content-encoding': 'gzip' }).send(gzipSync(huge)).expect(413);
    await post('/api/v1/runs/batch').send({ post: [{ name: 'x'.repeat(70 * 1024) }] }).expect(413);
    const gzipped = gzipSync(JSON.stringify({ post: [{ name: 'x'.repeat(70 * 1024) }] }));
    // As sent (superagent would serialize a Buffer with a JSON content type).
    await post('/api/v1/runs/batch').set({ 'content-encoding': 'gzip', 'content-type': 'application/json' }).serialize((b) => b).send(gzipped).expect(413);
    await post('/api/v1/sessions').send({ name: 'x'.repeat(20 * 1024) }).expect(413);
  });

  it('holds each route to its own limit: a body the multipart route takes is too large for /runs/batch', async () => {
    const id = randomUUID();
    const run = rootRun(id, { inputs: { text: 'x'.repeat(100 * 1024) } });
    const batch = await post('/api/v1/runs/batch').send({ post: [run] }).expect(413);
    expect(batch.body).toEqual({ detail: 'Request body is larger than 65536 bytes' });
    await post('/api/v1/runs/multipart').set('content-type', `multipart/form-data; boundary=${BOUNDARY}`).send(multipart([[`post.${id}`, run]])).expect(202);
  });
});
