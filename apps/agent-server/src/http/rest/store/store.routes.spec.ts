import request from 'supertest';
import { startTestStoreApp, storeGatewayHeaders, type TestStoreApp } from './store-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describe('store routes (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let t: TestStoreApp;
  const call = (method: 'get' | 'put' | 'post' | 'delete', path: string) => request(t.app)[method](path).set(storeGatewayHeaders());

  beforeAll(async () => {
    t = await startTestStoreApp();
  });
  afterAll(() => t?.close());

  it('puts, gets, searches and deletes items in the wire shape', async () => {
    await call('put', '/store/items').send({ namespace: ['users', 'ann'], key: 'prefs', value: { theme: 'dark' } }).expect(204, '');
    const got = await call('get', '/store/items').query({ namespace: 'users.ann', key: 'prefs' }).expect(200);
    expect(got.body).toEqual({
      namespace: ['users', 'ann'],
      key: 'prefs',
      value: { theme: 'dark' },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    // Repeated namespace parameters name the labels one by one.
    expect((await call('get', '/store/items?namespace=users&namespace=ann&key=prefs').expect(200)).body.value).toEqual({ theme: 'dark' });

    const found = await call('post', '/store/items/search').send({ namespace_prefix: ['users'], filter: { theme: { $in: ['dark'] } } }).expect(200);
    expect(found.body).toEqual({ items: [{ ...got.body, score: null }] });
    expect((await call('post', '/store/items/search').send({ namespace_prefix: ['users'], filter: { theme: 'light' } }).expect(200)).body).toEqual({ items: [] });

    await call('delete', '/store/items').send({ namespace: ['users', 'ann'], key: 'prefs' }).expect(204);
    // A missing item is 200 null (the SDK's getItem returns null).
    const missing = await call('get', '/store/items').query({ namespace: 'users.ann', key: 'prefs' }).expect(200);
    expect(missing.text).toBe('null');
    await request(t.app).get('/store/items').query({ namespace: 'users.ann', key: 'prefs' }).expect(401);
  });

  it('lists namespaces with prefix, suffix, wildcards, depth and paging', async () => {
    for (const namespace of [['org', 'a', 'docs'], ['org', 'b', 'docs'], ['org', 'b', 'notes'], ['org:x', 'c']]) {
      await call('put', '/store/items').send({ namespace, key: 'k', value: {} }).expect(204);
    }
    const list = async (body: object) => (await call('post', '/store/namespaces').send(body).expect(200)).body;
    expect(await list({ prefix: ['org'] })).toEqual({ namespaces: [['org', 'a', 'docs'], ['org', 'b', 'docs'], ['org', 'b', 'notes']] });
    expect(await list({ prefix: ['org', '*', 'docs'], max_depth: 2 })).toEqual({ namespaces: [['org', 'a'], ['org', 'b']] });
    expect(await list({ suffix: ['notes'] })).toEqual({ namespaces: [['org', 'b', 'notes']] });
    expect(await list({ prefix: ['org:x'] })).toEqual({ namespaces: [['org:x', 'c']] });
    expect(await list({ prefix: ['org'], limit: 1, offset: 2 })).toEqual({ namespaces: [['org', 'b', 'notes']] });
  });

  it('honours ttl on put and refresh_ttl on reads', async () => {
    await call('put', '/store/items').send({ namespace: ['ttl'], key: 'k', value: { v: 1 }, ttl: 1 }).expect(204);
    await t.expireIn(['ttl'], 'k', 5);
    await call('get', '/store/items').query({ namespace: 'ttl', key: 'k', refresh_ttl: 'false' }).expect(200);
    await call('post', '/store/items/search').send({ namespace_prefix: ['ttl'], refresh_ttl: false }).expect(200);
    const remaining = async () => {
      const [row] = await t.db.prisma.$queryRawUnsafe<{ s: number }[]>(`SELECT extract(epoch FROM expires_at - now())::float8 AS s FROM store_items WHERE prefix = 'ttl'`);
      return row!.s;
    };
    expect(await remaining()).toBeLessThan(6);
    await call('get', '/store/items').query({ namespace: 'ttl', key: 'k' }).expect(200);
    expect(await remaining()).toBeGreaterThan(55);

    await t.expireIn(['ttl'], 'k', -1);
    expect((await call('get', '/store/items').query({ namespace: 'ttl', key: 'k' }).expect(200)).body).toBeNull();
    await call('put', '/store/items').send({ namespace: ['ttl'], key: 'never', value: {}, ttl: null }).expect(204);
  });

  it('answers invalid requests with FastAPI 422s and refused values with 400', async () => {
    const detail = async (res: request.Test) => (await res.expect(422)).body.detail as { loc: (string | number)[]; msg: string }[];
    expect((await detail(call('put', '/store/items').send({ namespace: ['a.b'], key: 'k', value: {} })))[0]).toMatchObject({
      loc: ['body', 'namespace', 0],
      msg: "Namespace labels cannot contain periods ('.')",
    });
    expect((await detail(call('put', '/store/items').send({ namespace: ['a', ''], key: 'k', value: {} })))[0]!.loc).toEqual(['body', 'namespace', 1]);
    expect((await detail(call('put', '/store/items').send({ namespace: [], key: 'k', value: {} })))[0]!.loc).toEqual(['body', 'namespace']);
    expect((await detail(call('put', '/store/items').send({ namespace: ['a'], key: 'k', value: [1] })))[0]!.loc).toEqual(['body', 'value']);
    expect((await detail(call('put', '/store/items').send({ namespace: ['a'], key: 'k', value: {}, ttl: 0 })))[0]!.loc).toEqual(['body', 'ttl']);
    expect((await detail(call('get', '/store/items').query({ namespace: 'a..b', key: 'k' })))[0]!.loc).toEqual(['query', 'namespace', 1]);
    expect((await detail(call('get', '/store/items').query({ namespace: 'a' })))[0]!.loc).toEqual(['query', 'key']);
    expect((await detail(call('delete', '/store/items').send({ namespace: ['a.b'], key: 'k' })))[0]!.loc).toEqual(['body', 'namespace', 0]);
    const badFilter = await detail(call('post', '/store/items/search').send({ namespace_prefix: ['a'], filter: { age: { $regex: 'x' } } }));
    expect(badFilter[0]).toMatchObject({ loc: ['body', 'filter', 'age'], msg: expect.stringContaining('$regex') });
    expect((await detail(call('post', '/store/items/search').send({ limit: 0 })))[0]!.loc).toEqual(['body', 'limit']);
    expect((await detail(call('post', '/store/namespaces').send({ prefix: ['a.b'] })))[0]!.loc).toEqual(['body', 'prefix', 0]);
    expect((await detail(call('post', '/store/namespaces').send({ max_depth: 0 })))[0]!.loc).toEqual(['body', 'max_depth']);

    const refused = await call('put', '/store/items').send({ namespace: ['a'], key: 'k', value: { text: 'nul\u0000' } }).expect(422);
    expect(refused.body.detail).toEqual([{ loc: ['body', 'value', 'text'], msg: expect.stringContaining('\\u0000'), type: 'value_error' }]);
  });
});
