import SwaggerParser from '@apidevtools/swagger-parser';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { createHttpApp } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { docsRoutes, mountRoutes, openApiDocument, route, undeclaredRoutes, type DeclaredRoute } from './index';

type Json = { name: string; children: Json[] };
const tree: z.ZodType<Json> = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }));

const item = z.object({ id: z.string(), size: z.number().int(), note: z.string().nullable() });

const routes: DeclaredRoute[] = [
  route(
    {
      method: 'get',
      path: '/items/:itemId',
      summary: 'Get an item',
      tags: ['Items'],
      params: z.object({ itemId: z.string().uuid() }),
      query: z.object({ verbose: z.coerce.boolean().default(false), fields: z.string().transform((v) => v.split(',')).optional() }),
      headers: { 'If-None-Match': { description: 'An ETag seen before', schema: z.string() } },
      responses: { 200: { description: 'The item', schema: item, headers: { 'X-Size': { description: 'Its size', schema: z.number().int() } } } },
    },
    ({ params, query }, _req, res) => {
      res.json({ id: params.itemId, size: query.verbose ? 2 : 1, note: query.fields?.join('|') ?? null });
    },
  ),
  route(
    { method: 'post', path: '/trees', summary: 'Store a tree', body: tree, responses: { 201: { description: 'Stored', schema: tree } } },
    ({ body }, _req, res) => {
      res.status(201).json(body);
    },
  ),
  route({ method: 'get', path: '/public', summary: 'Public', public: true, responses: { 204: { description: 'Nothing' } } }, (_input, _req, res) => {
    res.status(204).end();
  }),
];

function appOf(extra?: (app: express.Express) => void) {
  return createHttpApp({
    service: 'test',
    logger: silentLogger,
    routes: (app) => {
      mountRoutes(app, routes);
      extra?.(app);
    },
  }).app;
}

describe('mountRoutes', () => {
  const app = appOf();

  it('hands the handler the parsed path, query and body', async () => {
    const id = '3f1c1a4e-6d7a-4a55-9e55-1a2b3c4d5e6f';
    await request(app).get(`/items/${id}?verbose=1&fields=a,b`).expect(200, { id, size: 2, note: 'a|b' });
    const body = { name: 'a', children: [{ name: 'b', children: [] }] };
    await request(app).post('/trees').send(body).expect(201, body);
  });

  it('answers bad input with the FastAPI-shaped 422, located at the part that is wrong', async () => {
    const { body } = await request(app).get('/items/not-a-uuid').expect(422);
    expect(body.detail[0]).toMatchObject({ loc: ['path', 'itemId'] });
    const tree = await request(app).post('/trees').send({ name: 1 }).expect(422);
    expect(tree.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual(expect.arrayContaining([['body', 'name'], ['body', 'children']]));
  });
});

describe('a route whose middleware must refuse first', () => {
  it('runs its `before` middleware ahead of validation: an unauthenticated bad request is 401, not 422', async () => {
    const guarded = route(
      {
        method: 'post',
        path: '/guarded',
        summary: 'Guarded',
        before: [(req, _res, next) => next(req.headers.authorization ? undefined : Object.assign(new Error('Unauthorized'), { status: 401, expose: true }))],
        body: z.object({ n: z.number() }),
        responses: { 200: { description: 'ok' } },
      },
      ({ body }, _req, res) => {
        res.json({ n: body.n });
      },
    );
    const app = createHttpApp({ service: 'test', logger: silentLogger, routes: (a) => mountRoutes(a, [guarded]) }).app;
    await request(app).post('/guarded').send({ n: 'x' }).expect(401);
    await request(app).post('/guarded').set('authorization', 'yes').send({ n: 'x' }).expect(422);
    await request(app).post('/guarded').set('authorization', 'yes').send({ n: 2 }).expect(200, { n: 2 });
  });
});

describe('openApiDocument', () => {
  const doc = openApiDocument({ title: 'Test', version: '1.0.0', tags: [{ name: 'Items' }] }, routes);

  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('documents parameters, bodies, responses and who needs a key from the declarations', () => {
    const get = doc.paths['/items/{itemId}'].get as Record<string, unknown>;
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'itemId', in: 'path', required: true, schema: expect.objectContaining({ format: 'uuid' }) }),
      expect.objectContaining({ name: 'verbose', in: 'query', required: false }),
      expect.objectContaining({ name: 'fields', in: 'query', required: false }),
      { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag seen before', schema: { type: 'string' } },
    ]);
    expect(get.responses).toMatchObject({
      200: { content: { 'application/json': { schema: { required: ['id', 'size', 'note'] } } }, headers: { 'X-Size': { description: 'Its size', schema: { type: 'integer' } } } },
      422: {},
    });
    expect(doc.paths['/public'].get).toMatchObject({ security: [], responses: { 204: { description: 'Nothing' } } });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it('moves the definitions of recursive schemas into components, where their references resolve', async () => {
    const dereferenced = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as typeof doc;
    const body = dereferenced.paths['/trees'].post as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
    expect(Object.keys(body.requestBody.content['application/json'].schema.properties)).toEqual(['name', 'children']);
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
  });

  it('refuses a route declared twice', () => {
    expect(() => openApiDocument({ title: 'x', version: '1' }, [routes[0], routes[0]])).toThrow(/declared twice: GET \/items\/:itemId/);
  });
});

describe('undeclaredRoutes', () => {
  it('is empty when every route is declared (probes and the docs allowed)', () => {
    const doc = openApiDocument({ title: 'x', version: '1' }, routes);
    const app = appOf((a) => a.use(docsRoutes(doc, { title: 'x', server: 'origin' })));
    expect(undeclaredRoutes(app, routes)).toEqual([]);
    expect(undeclaredRoutes(app, routes, [])).toEqual(expect.arrayContaining(['GET /ok', 'GET /openapi.json (in a mounted router)']));
  });

  it('names a route added without a declaration, or declared but mounted inside a router', () => {
    const nested = express.Router();
    nested.delete('/things/:id', (_req, res) => res.end());
    mountRoutes(nested, [routes[2]]);
    const app = appOf((a) => {
      a.post('/loose', (_req, res) => res.end());
      a.use('/v1', nested);
    });
    expect(undeclaredRoutes(app, routes)).toEqual(['POST /loose', 'DELETE /things/{id} (in a mounted router)', 'GET /public (in a mounted router)']);
  });
});
