import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import type { TracingDatabase } from '@platform/tracing-data-access';
import { asTenant, startTestTracingApp } from './tracing-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describe('sessions routes (PGlite)', () => {
  let app: Express;
  let db: TracingDatabase;
  const tenant = randomUUID();
  const as = (req: request.Test) => req.set(asTenant(tenant));

  beforeAll(async () => {
    ({ app, db } = await startTestTracingApp());
  });
  afterAll(() => db?.close());

  it('creates, upserts, reads, updates and deletes a project as the SDK calls it', async () => {
    // createProject sends description: null and extra: {metadata}, and ?upsert=true when asked.
    const created = await as(request(app).post('/api/v1/sessions')).send({ name: 'exp', description: null, extra: { metadata: { a: 1 } } }).expect(200);
    expect(created.body).toMatchObject({ name: 'exp', tenant_id: tenant, extra: { metadata: { a: 1 } }, end_time: null, reference_dataset_id: null });
    await as(request(app).post('/api/v1/sessions')).send({ name: 'exp' }).expect(409);
    const upserted = await as(request(app).post('/api/v1/sessions?upsert=true')).send({ name: 'exp', description: 'now described', extra: null }).expect(200);
    expect(upserted.body).toMatchObject({ id: created.body.id, description: 'now described', extra: { metadata: { a: 1 } } });

    await as(request(app).get(`/api/v1/sessions/${created.body.id}`)).expect(200);
    // updateProject sends every field, null for those it leaves alone.
    const updated = await as(request(app).patch(`/api/v1/sessions/${created.body.id}`))
      .send({ name: null, description: null, extra: null, end_time: '2024-05-01T12:00:00.000000Z' })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'exp', description: 'now described', end_time: '2024-05-01T12:00:00.000Z' });
    const bad = await as(request(app).patch(`/api/v1/sessions/${created.body.id}`)).send({ end_time: 'whenever' }).expect(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'end_time'] });

    const runId = randomUUID();
    await as(request(app).post('/api/v1/runs')).send({ id: runId, session_id: created.body.id, name: 'r' }).expect(202);
    await as(request(app).get(`/api/v1/runs/${runId}`)).expect(200);
    await request(app).delete(`/api/v1/sessions/${created.body.id}`).set(asTenant(randomUUID())).expect(404);
    await as(request(app).delete(`/api/v1/sessions/${created.body.id}`)).expect(202);
    await as(request(app).get(`/api/v1/sessions/${created.body.id}`)).expect(404);
    await as(request(app).get(`/api/v1/runs/${runId}`)).expect(404);
    await as(request(app).get('/api/v1/sessions/not-a-uuid')).expect(422);
  });

  it('lists projects by exact name as an array', async () => {
    await as(request(app).post('/api/v1/sessions')).send({ name: 'listed' }).expect(200);
    const found = await as(request(app).get('/api/v1/sessions?name=listed')).expect(200);
    expect(found.body.map((p: { name: string }) => p.name)).toEqual(['listed']);
    expect((await as(request(app).get('/api/v1/sessions?name=nope')).expect(200)).body).toEqual([]);
  });
});
