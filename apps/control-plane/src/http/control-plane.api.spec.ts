import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { undeclaredRoutes } from '@platform/openapi';
import { createControlPlaneApp } from '../app';
import { controlPlaneOpenApi, controlPlaneRoutes } from './control-plane.api';

// The routes are declared with their use cases' contexts; neither is used to describe them or to refuse bad input.
const deps = { deployments: {} as never, oauth: {} as never, urls: {}, sourcesDir: '/nonexistent' };
const SECRET = 'test-internal-secret-123';
const app = createControlPlaneApp({ ...deps, logger: silentLogger, internalSecret: SECRET });
const doc = controlPlaneOpenApi(controlPlaneRoutes(deps));

describe('the control plane OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes every route the app serves (a route without a schema fails here)', () => {
    expect(undeclaredRoutes(app, controlPlaneRoutes(deps))).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual([
      '/v2/deployments',
      '/v2/deployments/{deploymentId}',
      '/v2/deployments/{deploymentId}/revisions',
      '/v2/deployments/{deploymentId}/revisions/{revisionId}',
      '/v2/deployments/{deploymentId}/revisions/{revisionId}/logs',
      '/v2/deployments/{deploymentId}/revisions/{revisionId}/redeploy',
      '/v2/deployments/{deploymentId}/revisions/{revisionId}/interrupt',
      '/v2/auth/providers',
      '/v2/auth/providers/{providerId}',
      '/v2/auth/authenticate',
      '/v2/auth/wait/{authId}',
      '/v2/auth/callback/{providerId}',
      '/v2/sources/{name}',
    ]);
  });

  it('documents the request schemas the routes validate with, and the callback as public', () => {
    const create = doc.paths['/v2/deployments'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'source', 'source_config', 'source_revision_config', 'secrets']);
    const list = doc.paths['/v2/deployments'].get as { parameters: { name: string }[] };
    expect(list.parameters.map((p) => p.name)).toEqual(['limit', 'offset', 'name_contains', 'status', 'deployment_type', 'deployment_ids']);
    expect(doc.paths['/v2/auth/callback/{providerId}'].get).toMatchObject({ security: [] });
  });

  it('is served at /openapi.json and /docs without the gateway identity; the API itself still needs it', async () => {
    const { body } = await request(app).get('/openapi.json').expect(200);
    expect(body).toMatchObject({ openapi: '3.1.0', info: { title: 'Control plane' } });
    expect((await request(app).get('/docs/').expect(200)).text).toContain('swagger-ui');
    await request(app).get('/v2/deployments').expect(401);
  });

  it('refuses bad input with the 422 of the declared schemas before reaching a use case', async () => {
    const requestId = 'req-openapi-1';
    const headers = { 'x-request-id': requestId, ...signIdentity(SECRET, { tenantId: 't1', organizationId: 'o1', subject: 'key' }, requestId) };
    const { body } = await request(app).get('/v2/deployments?limit=0').set(headers).expect(422);
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
    const created = await request(app).post('/v2/deployments').set(headers).send({ name: 'x' }).expect(422);
    expect(created.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(expect.arrayContaining(['source', 'secrets']));
  });
});
