import { randomUUID } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import type { Express } from 'express';
import request from 'supertest';
import type { TracingDatabase } from '@platform/tracing-data-access';
import { asTenant, startTestTracingApp } from './tracing-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const BOUNDARY = 'v2Boundary';
const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128, 7]);

function multipart(parts: [name: string, value: unknown, type?: string][]): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value, type = 'application/json'] of parts) {
    const data = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value));
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: ${type}; length=${data.length}\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** The v2 reads and attachments over HTTP: request validation, the event-stream answer, links and downloads. */
describe('v2 run reads and attachments over HTTP (PGlite)', () => {
  let app: Express;
  let db: TracingDatabase;
  const tenant = randomUUID();
  const runId = randomUUID();
  let projectId: string;
  const as = (req: request.Test) => req.set(asTenant(tenant));

  beforeAll(async () => {
    // The v2 reads are "other" routes: their own small limit, as in production (1 MiB there).
    ({ app, db } = await startTestTracingApp({ maxAttachmentBytes: 64, bodyLimits: { other: 16 * 1024 } }));
    const run = { id: runId, trace_id: runId, dotted_order: `20240501T120000000001Z${runId}`, name: 'root', run_type: 'chain', start_time: '2024-05-01T12:00:00.000001Z', session_name: 'v2' };
    await as(request(app).post('/api/v1/runs/multipart'))
      .set('content-type', `multipart/form-data; boundary=${BOUNDARY}`)
      .send(multipart([[`post.${runId}`, run], [`attachment.${runId}.diagram`, BYTES, 'image/png'], [`attachment.${runId}.note`, Buffer.from('hé'), 'text/plain']]))
      .expect(202);
    projectId = (await as(request(app).get('/api/v1/sessions?name=v2')).expect(200)).body[0].id;
  });
  afterAll(() => db?.close());

  const query = (body: Record<string, unknown>) => as(request(app).post('/api/v2/runs/query')).send({ project_ids: [projectId], min_start_time: '2024-05-01T00:00:00Z', ...body });

  it('answers runs.query, runs.retrieve, traces.query and traces.listRuns', async () => {
    expect((await query({ selects: ['NAME'] }).expect(200)).body).toEqual({ items: [{ id: runId, name: 'root' }], next_cursor: null });
    const single = await as(request(app).get(`/api/v2/runs/${runId}?project_id=${projectId}&selects=RUN_TYPE`)).expect(200);
    expect(single.body).toEqual({ id: runId, run_type: 'CHAIN' });
    const repeated = await as(request(app).get(`/api/v2/runs/${runId}?project_id=${projectId}&selects=RUN_TYPE&selects=IS_ROOT`)).expect(200);
    expect(repeated.body).toEqual({ id: runId, run_type: 'CHAIN', is_root: true });
    const traces = await as(request(app).post('/api/v2/traces/query')).send({ project_id: projectId, min_start_time: '2024-05-01T00:00:00Z' }).expect(200);
    expect(traces.body).toEqual({ items: [{ root_run: { id: runId }, query_metadata: null }], next_cursor: null });
    const runs = await as(request(app).get(`/api/v2/traces/${runId}/runs?project_id=${projectId}`)).expect(200);
    expect(runs.body).toEqual({ items: [{ id: runId }] });
  });

  it('answers a page as one JSON Patch event when the client asks for an event stream', async () => {
    const res = await query({ selects: ['NAME'] }).set('accept', 'text/event-stream').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const page = { items: [{ id: runId, name: 'root' }], next_cursor: null };
    expect(res.text).toBe(`data: ${JSON.stringify([{ op: 'add', path: '', value: page }])}\n\nevent: end\ndata: {}\n\n`);
  });

  it('answers bad requests with a 422 naming the field, and ai_search with 501', async () => {
    const detail = async (req: request.Test, status = 422) => (await req.expect(status)).body.detail;
    expect((await detail(as(request(app).post('/api/v2/runs/query')).send({})))[0]).toMatchObject({ loc: ['body', 'project_ids'] });
    expect((await detail(query({ selects: ['NAME', 'COLOUR'] })))[0]).toMatchObject({ loc: ['body', 'selects', 1] });
    expect((await detail(query({ page_size: 1001 })))[0]).toMatchObject({ loc: ['body', 'page_size'] });
    expect((await detail(query({ run_type: 'banana' })))[0]).toMatchObject({ loc: ['body', 'run_type'] });
    expect((await detail(query({ min_start_time: 'yesterday' })))[0]).toMatchObject({ loc: ['body', 'min_start_time'] });
    expect(await detail(query({ filter: 'eq(name' }), 400)).toMatch(/^Invalid filter: Unexpected end of input at position 7/);
    expect(await detail(query({ ai_search: 'sad users' }), 501)).toContain('ai_search is not available');
    expect((await detail(as(request(app).get('/api/v2/runs/nope?project_id=x'))))[0]).toMatchObject({ loc: ['path', 'run_id'] });
    expect((await detail(as(request(app).get(`/api/v2/runs/${runId}`))))[0]).toMatchObject({ loc: ['query', 'project_id'] });
    const noMax = as(request(app).get(`/api/v2/traces/${runId}/runs?project_id=${projectId}&min_start_time=2024-05-01T00:00:00Z`));
    expect((await detail(noMax))[0]).toMatchObject({ loc: ['query', 'max_start_time'] });
    expect((await detail(as(request(app).post('/api/v2/traces/query')).send({})))[0]).toMatchObject({ loc: ['body', 'project_id'] });
    await as(request(app).get(`/api/v2/runs/${randomUUID()}?project_id=${projectId}`)).expect(404);
  });

  it('stores attachments and links them from v1 and v2 reads; a link downloads the bytes with no API key', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gw.example.com' };
    const v1 = (await as(request(app).get(`/api/v1/runs/${runId}`)).set(forwarded).expect(200)).body;
    expect(v1.s3_urls).toEqual({
      'attachment.diagram': { presigned_url: expect.stringMatching(/^https:\/\/gw\.example\.com\/api\/v1\/public\/download\?jwt=/), mime_type: 'image/png' },
      'attachment.note': { presigned_url: expect.any(String), mime_type: 'text/plain' },
    });
    const listed = (await as(request(app).post('/api/v1/runs/query')).send({ session: [projectId] }).expect(200)).body.runs;
    expect(Object.keys(listed[0].s3_urls)).toEqual(['attachment.diagram', 'attachment.note']);
    const v2 = (await query({ selects: ['ATTACHMENTS'] }).expect(200)).body.items[0];
    expect(Object.keys(v2.attachments)).toEqual(['diagram', 'note']);

    const path = (url: string) => new URL(url).pathname + new URL(url).search;
    const file = await request(app).get(path(v1.s3_urls['attachment.diagram'].presigned_url)).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(file.status).toBe(200);
    expect(file.body).toEqual(BYTES);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': `attachment; filename="diagram"; filename*=UTF-8''diagram`,
      'x-content-type-options': 'nosniff',
    });
    const note = await request(app).get(path(v2.attachments.note)).expect(200);
    expect(note.text).toBe('hé');

    const token = new URL(v2.attachments.note).searchParams.get('jwt') as string;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await request(app).get(`/api/v1/public/download?jwt=${tampered}`).expect(403)).body).toEqual({ detail: 'Invalid download link' });
    expect((await request(app).get('/api/v1/public/download').expect(422)).body.detail[0]).toMatchObject({ loc: ['query', 'jwt'] });
    // Only the download is public: other reads still need the gateway's identity.
    await request(app).get(`/api/v1/runs/${runId}`).expect(401);
  });

  it('refuses an attachment over the size limit with 413 and stores nothing of the batch', async () => {
    const id = randomUUID();
    const run = { id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: 'big', run_type: 'chain' };
    const res = await as(request(app).post('/api/v1/runs/multipart'))
      .set('content-type', `multipart/form-data; boundary=${BOUNDARY}`)
      .send(multipart([[`post.${id}`, run], [`attachment.${id}.big`, Buffer.alloc(65), 'image/png']]))
      .expect(413);
    expect(res.body.detail).toBe(`Attachment attachment.${id}.big is larger than 64 bytes`);
    await as(request(app).get(`/api/v1/runs/${id}`)).expect(404);
  });

  it('holds the v2 queries to the other routes’ body limit, and answers unreadable paths, bodies and links with 4xx', async () => {
    const big = await query({ filter: `eq(name, "${'x'.repeat(20 * 1024)}")` }).expect(413);
    expect(big.body).toEqual({ detail: 'Request body is larger than 16384 bytes' });
    await as(request(app).post('/api/v2/traces/query')).send({ project_id: projectId, trace_filter: 'x'.repeat(20 * 1024) }).expect(413);
    // A brotli body that is not brotli: 400 naming the encoding.
    const notBrotli = await as(request(app).post('/api/v2/runs/query'))
      .set({ 'content-type': 'application/json', 'content-encoding': 'br' })
      .send('{"project_ids": []}')
      .expect(400);
    expect(notBrotli.body.detail).toMatch(/^Body is not valid br \(Content-Encoding: br\)/);
    const brotli = brotliCompressSync(JSON.stringify({ project_ids: [projectId], min_start_time: '2024-05-01T00:00:00Z', selects: ['NAME'] }));
    const decoded = await as(request(app).post('/api/v2/runs/query'))
      .set({ 'content-type': 'application/json', 'content-encoding': 'br' })
      .serialize((b) => b)
      .send(brotli)
      .expect(200);
    expect(decoded.body.items).toEqual([{ id: runId, name: 'root' }]);
    // Path segments that are not percent-encoded UTF-8.
    for (const path of [`/api/v2/runs/%ff?project_id=${projectId}`, `/api/v2/traces/%ff%fe/runs?project_id=${projectId}`]) {
      expect((await as(request(app).get(path)).expect(400)).body).toEqual({ detail: expect.stringMatching(/^Malformed path: "%ff.*" is not valid percent-encoded UTF-8$/) });
    }
    // Links that are not ours: 403; a link given twice, as an object, empty or with a NUL: 422. Never a 5xx.
    for (const jwt of ['%ff', 'a.b.c', '...', 'x'.repeat(5000), 'eyJ.%ff%fe.x']) {
      expect((await request(app).get(`/api/v1/public/download?jwt=${jwt}`).expect(403)).body).toEqual({ detail: 'Invalid download link' });
    }
    for (const query of ['jwt=a&jwt=b', 'jwt[x]=1', 'jwt=', 'jwt=a.%00.b']) {
      expect((await request(app).get(`/api/v1/public/download?${query}`).expect(422)).body.detail[0]).toMatchObject({ loc: ['query', 'jwt'] });
    }
  });
});
