import SwaggerParser from '@apidevtools/swagger-parser';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ServiceUnavailableError } from '@platform/errors';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { undeclaredRoutes } from '@platform/openapi';
import { createExportApp } from '../app';
import { exportOpenApi, exportRoutes } from './export.api';

// The routes are declared with their use cases' dependencies; none is used to describe them or to refuse bad input.
const deps = { exports: {} as never, destinations: {} as never };
const SECRET = 'export-test-internal-secret-0123';
const app = createExportApp({ ...deps, logger: silentLogger, internalSecret: SECRET });
const doc = exportOpenApi(exportRoutes(deps));

function asTenant(tenantId: string): Record<string, string> {
  const requestId = `req-${tenantId}`;
  return { 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId, organizationId: 'org', subject: 'key' }, requestId) };
}

describe('the bulk export OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes every route the app serves (a route without a schema fails here)', () => {
    expect(undeclaredRoutes(app, exportRoutes(deps))).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual([
      '/api/v1/bulk-exports/destinations',
      '/api/v1/bulk-exports/destinations/{destinationId}',
      '/api/v1/bulk-exports',
      '/api/v1/bulk-exports/runs',
      '/api/v1/bulk-exports/{exportId}',
      '/api/v1/bulk-exports/{exportId}/runs',
      '/api/v1/bulk-exports/{exportId}/runs/{runId}',
    ]);
  });

  it('documents the request schemas the routes validate with', () => {
    const create = doc.paths['/api/v1/bulk-exports'].post as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['bulk_export_destination_id', 'session_id', 'start_time', 'interval_hours']),
    );
  });

  it('is served at /openapi.json and /docs without the gateway identity', async () => {
    const { body } = await request(app).get('/openapi.json').expect(200);
    expect(body).toMatchObject({ openapi: '3.1.0', info: { title: 'Bulk export' } });
    expect((await request(app).get('/docs/').expect(200)).text).toContain('swagger-ui');
    await request(app).get('/api/v1/bulk-exports').expect(401);
  });

  it('refuses bad input with the 422 of the declared schemas before reaching a use case', async () => {
    const { body } = await request(app).get('/api/v1/bulk-exports?limit=0').set(asTenant('t1')).expect(422);
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
    const created = await request(app).post('/api/v1/bulk-exports/destinations').set(asTenant('t1')).send({}).expect(422);
    expect(created.body.detail[0].loc[0]).toBe('body');
  });

  it('answers 503 with Retry-After naming the job queue while it is unreachable, before touching any store', async () => {
    const unreachable = () => {
      throw new ServiceUnavailableError('job queue (NATS)', { message: 'The job queue (NATS JetStream) is unreachable; reconnecting', retryAfterSeconds: 5 });
    };
    // No repositories: the use case must refuse before it reads or writes anything.
    const down = createExportApp({ exports: { requireJobQueue: unreachable } as never, destinations: {} as never, logger: silentLogger, internalSecret: SECRET });
    const body = { bulk_export_destination_id: randomUUID(), session_id: randomUUID(), start_time: '2024-05-01T00:00:00Z', end_time: '2024-05-02T00:00:00Z' };
    const res = await request(down).post('/api/v1/bulk-exports').set(asTenant('t1')).send(body).expect(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ detail: expect.stringContaining('NATS') });
  });
});
