import SwaggerParser from '@apidevtools/swagger-parser';
import express from 'express';
import request from 'supertest';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { UNDOCUMENTED_ROUTES, undeclaredRoutes } from '@platform/openapi';
import { createGatewayApp } from '../app';
import { DEFAULT_WORKSPACE_LIMITS } from '@platform/rate-limit';
import { SERVICE_DOCS } from './docs.routes';
import { gatewayOpenApi, gatewayRoutes } from './gateway.api';
import type { GatewayListener } from './proxied-first';

// The routes are declared with the identity store; it is not used to describe them.
const deps = { store: {} as never, authenticator: {} as never, internalSecret: 'test-internal-secret-123' };
const routes = gatewayRoutes({ ...deps, browserSessions: { ttlMs: 1000 }, defaultLimits: DEFAULT_WORKSPACE_LIMITS });
const doc = gatewayOpenApi(routes);

describe("the gateway's own OpenAPI document", () => {
  it('validates as OpenAPI 3.1 and describes the admin API, browser sessions and internal calls', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(['/api/v1/workspaces', '/api/v1/api-keys', '/api/v1/api-keys/{id}', '/api/v1/workspaces/{id}/limits', '/api/v1/browser-session', '/internal/v1/service-keys', '/internal/v1/service-keys/{id}']);
    expect(doc.paths['/api/v1/api-keys'].post).toMatchObject({ tags: ['API keys'], responses: { 201: {}, 422: {} } });
  });
});

describe('API descriptions served by the gateway under each prefix', () => {
  let upstream: RunningHttpServer;
  let app: GatewayListener;
  const served = { openapi: '3.1.0', info: { title: 'Control plane', version: '2.0.0' }, paths: {} };

  beforeAll(async () => {
    // A control plane that serves its document; tracing and export are not there.
    upstream = await startHttpServer(express().get('/openapi.json', (_req, res) => res.json(served)), '127.0.0.1', 0);
    app = createGatewayApp({
      ...deps,
      logger: silentLogger,
      resolveDeployment: {} as never,
      upstreams: { 'control-plane': upstream.url, tracing: 'http://127.0.0.1:9', export: 'http://127.0.0.1:9' },
    });
  });
  afterAll(() => upstream?.close(100));

  it('declares every route it serves itself (a route without a schema fails here)', () => {
    const docs = SERVICE_DOCS.map((d) => `GET ${d.prefix}/openapi.json`);
    expect(undeclaredRoutes(app.express, routes, [...UNDOCUMENTED_ROUTES, ...docs])).toEqual([]);
  });

  it("relays a service's document without an API key, and its own", async () => {
    expect((await request(app).get('/v2/openapi.json').expect(200).expect('content-type', /json/)).body).toEqual(served);
    expect((await request(app).get('/api/v1/gateway/openapi.json').expect(200)).body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('answers 502 with a detail when the service is not there', async () => {
    expect((await request(app).get('/api/v1/tracing/openapi.json').expect(502)).body).toEqual({ detail: 'Upstream unavailable' });
  });

  it('serves Swagger UI at <prefix>/docs, reading <prefix>/openapi.json and trying requests at the origin', async () => {
    for (const { prefix } of SERVICE_DOCS) {
      expect((await request(app).get(`${prefix}/docs`).expect(301)).headers.location).toBe('docs/');
      expect((await request(app).get(`${prefix}/docs/`).expect(200)).text).toContain('swagger-ui-bundle.js');
      const initializer = (await request(app).get(`${prefix}/docs/swagger-initializer.js`).expect(200)).text;
      expect(initializer).toContain("new URL('openapi.json', base)");
      expect(initializer).toContain('url: base.origin');
    }
    await request(app).get('/v2/docs/swagger-ui-bundle.js').expect(200).expect('content-type', /javascript/);
  });
});
