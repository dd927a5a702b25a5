import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { upsertStaticDeployment } from '../../../tools/dev/static-deployment';
import { SERVICE_DOCS } from '../src/http/docs.routes';

/**
 * Each service's generated API description through the gateway, with no API key: `<prefix>/openapi.json` is a valid
 * OpenAPI 3.1 document of that service's routes, and `<prefix>/docs` is Swagger UI on it.
 */
describe('API descriptions through the gateway (all services in-process)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  // A path each document must describe: the prefix's own routes.
  const expected: Record<string, string> = {
    '/v2': '/v2/deployments',
    '/api/v1/tracing': '/api/v1/runs/multipart',
    '/api/v1/bulk-exports': '/api/v1/bulk-exports/destinations',
    '/api/v1/gateway': '/api/v1/api-keys',
  };

  it.each(SERVICE_DOCS.map((d) => [d.prefix, d.title]))('%s/openapi.json (%s) validates and describes the service', async (prefix) => {
    const response = await fetch(`${platform.gatewayUrl}${prefix}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain(expected[prefix]);
    await expect(SwaggerParser.validate(doc as never)).resolves.toBeDefined();

    const page = await fetch(`${platform.gatewayUrl}${prefix}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });

  it("serves a deployment's /docs and /openapi.json without a key, as the reference does; its API still needs one", async () => {
    // The deployment the platform's Agent Server serves (it takes requests signed with that deployment's key only).
    const id = await upsertStaticDeployment(platform.controlPlane, {
      id: platform.agentDeploymentId,
      tenantId: platform.workspaceId,
      name: 'docs-agent',
      upstreamUrl: platform.services['agent-server'].url,
      replicaUrls: [platform.services['agent-server'].url],
    });
    const doc = await fetch(`${platform.gatewayUrl}/deployments/${id}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(Object.keys(((await doc.json()) as { paths: Record<string, unknown> }).paths)).toContain('/threads');
    const page = await fetch(`${platform.gatewayUrl}/deployments/${id}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    // With a key, as before; everything else of the deployment still asks for one.
    expect((await fetch(`${platform.gatewayUrl}/deployments/${id}/openapi.json`, { headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId } })).status).toBe(200);
    expect((await fetch(`${platform.gatewayUrl}/deployments/${id}/threads/search`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401);
    expect((await fetch(`${platform.gatewayUrl}/deployments/${id}/assistants/search`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(`${platform.gatewayUrl}/deployments/00000000-0000-4000-8000-000000000000/openapi.json`)).status).toBe(404);
  });

  it('still asks for an API key everywhere else under those prefixes', async () => {
    expect((await fetch(`${platform.gatewayUrl}/v2/deployments`)).status).toBe(401);
    expect((await fetch(`${platform.gatewayUrl}/api/v1/bulk-exports`)).status).toBe(401);
  });
});
