import { runInNewContext } from 'node:vm';
import SwaggerParser from '@apidevtools/swagger-parser';
import express, { type Express } from 'express';
import request from 'supertest';
import { createHttpApp, startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { openApiPath, undeclaredRoutes } from '@platform/openapi';
import { agentServerRoutes, createAgentServerApp, type AgentServerDeps } from '../../app';
import { docsRoutes, isDocsPath } from './docs.routes';
import { agentServerOpenApi } from './openapi';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { tags: string[]; operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
  tags: { name: string }[];
};

// The app and its declared routes (no handler runs here: nothing behind them is used).
const deps: AgentServerDeps = {
  logger: silentLogger,
  deploymentKey: 'test-deployment-key-0123456789-0123456789',
  version: '1.2.3',
  registry: {} as never,
  assistants: {} as never,
  threads: { threads: {} as never, state: {} as never },
  runs: {} as never,
  store: {} as never,
  crons: {} as never,
  streaming: { sseHeartbeatMs: 1_000, waitKeepAliveMs: 1_000 },
  tracing: false,
};
const declared = Object.values(agentServerRoutes(deps)).flat();
const doc = agentServerOpenApi({ version: '1.2.3', routes: declared }) as unknown as Doc;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, op })),
  );

  it('is OpenAPI 3.1 with every endpoint group of the Agent Server as a tag', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.tags.map((t) => t.name)).toEqual(['Assistants', 'Threads', 'Thread Runs', 'Stateless Runs', 'Crons', 'Store', 'A2A', 'MCP', 'System']);
    const tagged = new Set(operations.flatMap(({ op }) => op.tags));
    expect([...tagged].sort()).toEqual(doc.tags.map((t) => t.name).sort());
  });

  it('describes the endpoints of every group', () => {
    const keys = operations.map((o) => o.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /assistants/search',
        'GET /assistants/{assistant_id}/schemas',
        'POST /threads',
        'GET /threads/{thread_id}/state',
        'POST /threads/{thread_id}/commands',
        'POST /threads/{thread_id}/stream/events',
        'POST /threads/{thread_id}/runs',
        'GET /threads/{thread_id}/runs/{run_id}/join',
        'GET /threads/{thread_id}/runs/{run_id}/stream',
        'POST /threads/{thread_id}/runs/{run_id}/cancel',
        'POST /runs/stream',
        'POST /runs/wait',
        'POST /runs/batch',
        'POST /runs/cancel',
        'POST /runs/crons',
        'POST /runs/crons/search',
        'PATCH /runs/crons/{cron_id}',
        'PUT /store/items',
        'POST /store/items/search',
        'POST /store/namespaces',
        'POST /a2a/{assistant_id}',
        'POST /mcp/',
        'GET /ok',
        'GET /info',
        'GET /docs',
        'GET /openapi.json',
      ]),
    );
  });

  it('describes every route the app serves: a route without a declaration fails here', () => {
    // What every declaration turned on serves, besides the probes and the docs (described in probes.paths.ts).
    expect(undeclaredRoutes(createAgentServerApp(deps), declared)).toEqual([]);
    // The development server's truncate and the graphs' UI bundles are outside the API (not in the reference's document).
    const withDevAndUi = createAgentServerApp({ ...deps, dev: { truncate: {} as never }, ui: { agent: [] } });
    expect(undeclaredRoutes(withDevAndUi, declared)).toEqual([
      'POST /internal/truncate (in a mounted router)',
      'POST /ui/{graph_id} (in a mounted router)',
      'GET /ui/{graph_id}/{basename} (in a mounted router)',
    ]);
    const keys = new Set(operations.map((o) => o.key));
    expect(declared.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`).filter((key) => !keys.has(key))).toEqual([]);
    expect(operations.filter((o) => o.op.tags.includes('System')).map((o) => o.key)).toEqual([
      'GET /info',
      'GET /ok',
      'GET /ready',
      'GET /metrics',
      'GET /openapi.json',
      'GET /docs',
    ]);
  });

  it('validates as OpenAPI 3.1 (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes request bodies with the zod schemas the routes validate them with, and statuses from the libs', () => {
    type Schema = { properties?: Record<string, { enum?: string[] }>; required?: string[]; items?: Schema };
    type Op = { requestBody: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content: Record<string, { schema: Schema }> }> };
    const op = (path: string, method: string) => doc.paths[path][method] as unknown as Op;
    const createRun = op('/threads/{thread_id}/runs', 'post').requestBody.content['application/json'].schema;
    expect(Object.keys(createRun.properties ?? {})).toEqual(expect.arrayContaining(['assistant_id', 'durability', 'checkpoint_during', 'if_not_exists']));
    expect(createRun.required).toEqual(['assistant_id']);
    const putItem = op('/store/items', 'put').requestBody.content['application/json'].schema;
    expect(Object.keys(putItem.properties ?? {})).toEqual(expect.arrayContaining(['namespace', 'key', 'value', 'index', 'ttl']));
    const run = op('/threads/{thread_id}/runs/{run_id}', 'get').responses['200'].content['application/json'].schema;
    expect(run.properties?.status.enum).toEqual(['pending', 'running', 'success', 'error', 'timeout', 'interrupted']);
    expect(op('/runs/wait', 'post').responses['200'].content['application/json']).toBeDefined();
    expect(Object.keys(op('/runs/stream', 'post').responses['200'].content)).toEqual(['text/event-stream']);
  });

  it('is consistent: unique operation ids, declared path parameters, resolvable references, a success response each', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, path, op } of operations) {
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect({ key, params: declared }).toEqual({ key, params: inPath });
      expect(Object.keys(op.responses).some((status) => status.startsWith('2'))).toBe(true);
    }
    const missing = refsIn(doc).filter((ref) => !(ref.replace('#/components/schemas/', '') in doc.components.schemas));
    expect(missing).toEqual([]);
  });
});

describe('GET /openapi.json and /docs behind the gateway prefix', () => {
  let gateway: Express;
  let server: RunningHttpServer;
  const prefix = '/deployments/3f1c1a4e-6d7a-4a55-9e55-1a2b3c4d5e6f';

  beforeAll(async () => {
    const { app } = createHttpApp({
      service: 'agent-server',
      logger: silentLogger,
      identity: { secret: 'test-internal-secret-123', publicPaths: isDocsPath },
      routes: (routes) => {
        routes.use(docsRoutes({ version: '1.2.3', routes: declared }));
      },
    });
    // The gateway serves a deployment under its prefix and forwards the rest of the path.
    gateway = express();
    gateway.use(prefix, app);
    server = await startHttpServer(gateway, '127.0.0.1', 0);
  });
  afterAll(() => server?.close(1_000));

  it('serves the document without a gateway identity', async () => {
    const { body } = await request(gateway).get(`${prefix}/openapi.json`).expect(200).expect('Content-Type', /json/);
    expect(body).toMatchObject({ openapi: '3.1.0', info: { title: 'Agent Server', version: '1.2.3' } });
  });

  it('redirects /docs to docs/ relatively, then serves Swagger UI whose every asset resolves under the prefix', async () => {
    const redirect = await request(gateway).get(`${prefix}/docs`).expect(301);
    expect(redirect.headers.location).toBe('docs/');
    const page = new URL(redirect.headers.location, `${server.url}${prefix}/docs`);
    expect(page.pathname).toBe(`${prefix}/docs/`);

    const html = await (await fetch(page)).text();
    const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(false);
      const response = await fetch(new URL(asset, page));
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
    }
    const bundle = await fetch(new URL('swagger-ui-bundle.js', page));
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  });

  it("starts Swagger UI on the prefixed document, with 'Try it out' aimed at the prefix", async () => {
    const page = new URL(`${prefix}/docs/`, server.url);
    const script = await (await fetch(new URL('swagger-initializer.js', page))).text();
    let config: { spec: { servers: { url: string }[]; paths: object } } | undefined;
    const SwaggerUIBundle = Object.assign((options: typeof config) => (config = options), { presets: { apis: {} } });
    const window = { location: { href: page.href }, onload: undefined as undefined | (() => Promise<void>) };
    // The page's script in a sandbox that has what a browser gives it; fetch is the real one.
    runInNewContext(script, { window, fetch, URL, SwaggerUIBundle, SwaggerUIStandalonePreset: {} });
    await window.onload!();

    expect(config?.spec.servers).toEqual([{ url: `${server.url}${prefix}` }]);
    expect(Object.keys(config?.spec.paths ?? {})).toContain('/assistants/search');
  });
});
