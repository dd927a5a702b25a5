import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { silentLogger } from '@platform/logging';
import { undeclaredRoutes } from '@platform/openapi';
import { createTracingApp } from '../app';
import { tracingOpenApi, tracingRoutes } from './tracing.api';
import { asTenant, TEST_SECRET } from './tracing-app.testing';

// The routes are declared with their stores; none is used to describe them or to refuse bad input.
const stores = { projects: {} as never, ingest: {} as never, runs: {} as never, queries: {} as never, attachments: {} as never, links: {} as never };
const limits = { version: '9.9.9', batchSizeLimitBytes: 1000, batchSizeLimit: 100 };
const app = createTracingApp({
  ...stores,
  ...limits,
  logger: silentLogger,
  internalSecret: TEST_SECRET,
  bodyLimits: { multipart: 1 << 20, jsonIngest: 1 << 20, other: 1 << 20 },
  maxAttachmentBytes: 1 << 20,
});
const routes = tracingRoutes({ ...stores, ...limits, maxAttachmentBytes: 1 });
const doc = tracingOpenApi(routes, '9.9.9');

describe('the tracing OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes every route the app serves (a route without a schema fails here)', () => {
    expect(undeclaredRoutes(app, routes)).toEqual([]);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/info',
      '/api/v1/public/download',
      '/api/v1/runs',
      '/api/v1/runs/batch',
      '/api/v1/runs/multipart',
      '/api/v1/runs/query',
      '/api/v1/runs/query/validate',
      '/api/v1/runs/{runId}',
      '/api/v1/sessions',
      '/api/v1/sessions/{sessionId}',
      '/api/v2/runs/query',
      '/api/v2/runs/{run_id}',
      '/api/v2/traces/query',
      '/api/v2/traces/{trace_id}/runs',
    ]);
  });

  it('documents bodies the ingest use cases validate with the same run schema, and the download as public', () => {
    type Body = { requestBody: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } };
    const create = doc.paths['/api/v1/runs'].post as Body;
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties ?? {})).toEqual(expect.arrayContaining(['id', 'name', 'run_type', 'dotted_order', 'child_runs']));
    const multipart = doc.paths['/api/v1/runs/multipart'].post as Body;
    expect(Object.keys(multipart.requestBody.content)).toEqual(['multipart/form-data']);
    expect(doc.paths['/api/v1/public/download'].get).toMatchObject({ security: [] });
  });

  it('is served at /openapi.json and /docs without the gateway identity', async () => {
    const { body } = await request(app).get('/openapi.json').expect(200);
    expect(body).toMatchObject({ openapi: '3.1.0', info: { title: 'Tracing', version: '9.9.9' } });
    expect((await request(app).get('/docs/').expect(200)).text).toContain('swagger-ui');
    await request(app).get('/api/v1/sessions').expect(401);
  });

  it('refuses bad input with the 422 of the declared schemas before reaching a store', async () => {
    const { body } = await request(app).get('/api/v1/sessions?limit=0').set(asTenant('t1')).expect(422);
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
    await request(app).post('/api/v1/runs/query').set(asTenant('t1')).send({ limit: 'many' }).expect(422);
  });
});
