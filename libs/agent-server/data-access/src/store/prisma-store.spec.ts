import { Annotation, MemorySaver, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';
import { InputError } from '@platform/errors';
import { silentLogger } from '@platform/logging';
import { startStoreTtlSweeper } from './store-ttl-sweeper';
import { openStoreFixture, type StoreFixture } from './store.testing';

// PGlite starts in a few seconds (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const keysOf = (items: { namespace: string[]; key: string }[]) => items.map((item) => `${item.namespace.join('/')}:${item.key}`);

describe('PrismaStore (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let fx: StoreFixture;

  beforeAll(async () => {
    fx = await openStoreFixture();
  });
  afterAll(() => fx?.close());

  it('puts, gets, overwrites and deletes items', async () => {
    const { store } = fx;
    expect(await store.get(['users', 'ann'], 'prefs')).toBeNull();
    await store.put(['users', 'ann'], 'prefs', { theme: 'dark', size: 14 });
    const first = await store.get(['users', 'ann'], 'prefs');
    expect(first).toEqual({ namespace: ['users', 'ann'], key: 'prefs', value: { theme: 'dark', size: 14 }, createdAt: expect.any(Date), updatedAt: expect.any(Date) });

    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.put(['users', 'ann'], 'prefs', { theme: 'light' });
    const second = await store.get(['users', 'ann'], 'prefs');
    expect(second?.value).toEqual({ theme: 'light' });
    expect(second?.createdAt).toEqual(first?.createdAt);
    expect(second!.updatedAt.getTime()).toBeGreaterThan(first!.updatedAt.getTime());

    await store.delete(['users', 'ann'], 'prefs');
    expect(await store.get(['users', 'ann'], 'prefs')).toBeNull();
    // Deleting what is not there is no error.
    await store.delete(['users', 'ann'], 'prefs');
  });

  it('refuses namespaces it could not store, and values Postgres cannot hold', async () => {
    const { store } = fx;
    await expect(store.put(['a.b'], 'k', {})).rejects.toThrow(InvalidNamespaceError);
    await expect(store.put(['a', ''], 'k', {})).rejects.toThrow(InvalidNamespaceError);
    await expect(store.put([], 'k', {})).rejects.toThrow(InvalidNamespaceError);
    await expect(store.batch([{ namespace: ['x.y'], key: 'k' }])).rejects.toThrow(InvalidNamespaceError);
    await expect(store.put(['nul'], 'k', { text: 'a\u0000b' })).rejects.toThrow(InputError);
    await expect(store.putItem(['ttl'], 'k', {}, { ttl: -1 })).rejects.toThrow(InputError);
  });

  it('runs a batch in order, each result at its operation', async () => {
    const { store } = fx;
    const results = await store.batch([
      { namespace: ['batch'], key: 'a', value: { n: 1 } },
      { namespace: ['batch'], key: 'a' },
      { namespacePrefix: ['batch'], limit: 10, offset: 0 },
      { namespace: ['batch'], key: 'a', value: null },
      { namespace: ['batch'], key: 'a' },
      { matchConditions: [{ matchType: 'prefix', path: ['batch'] }], limit: 10, offset: 0 },
    ] as const);
    expect(results[0]).toBeUndefined();
    expect(results[1]?.value).toEqual({ n: 1 });
    expect(keysOf(results[2] as { namespace: string[]; key: string }[])).toEqual(['batch:a']);
    expect(results[4]).toBeNull();
    expect(results[5]).toEqual([]);
  });

  it('searches a namespace prefix label by label, newest first, one page at a time', async () => {
    const { store } = fx;
    for (const [namespace, key] of [
      [['docs', 'a'], '1'],
      [['docs', 'a', 'deep'], '2'],
      [['docs', 'ab'], '3'],
      [['docs_x'], '4'],
      [['docs%'], '5'],
    ] as const) {
      await store.put([...namespace], key, { key });
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(keysOf(await store.search(['docs', 'a']))).toEqual(['docs/a/deep:2', 'docs/a:1']);
    expect(keysOf(await store.search(['docs']))).toEqual(['docs/ab:3', 'docs/a/deep:2', 'docs/a:1']);
    // LIKE's metacharacters in a label are plain characters.
    expect(keysOf(await store.search(['docs_']))).toEqual([]);
    expect(keysOf(await store.search(['docs%']))).toEqual(['docs%:5']);
    expect(keysOf(await store.search(['docs'], { limit: 2, offset: 1 }))).toEqual(['docs/a/deep:2', 'docs/a:1']);
    // No vector index: a query is accepted and changes nothing.
    const withQuery = await store.search(['docs'], { query: 'anything' });
    expect(keysOf(withQuery)).toEqual(['docs/ab:3', 'docs/a/deep:2', 'docs/a:1']);
    expect(withQuery[0]!.score).toBeUndefined();
    expect((await store.search([])).length).toBeGreaterThanOrEqual(5);
  });

  it('filters on top-level fields with equality and $eq $ne $gt $gte $lt $lte $in $nin', async () => {
    const { store } = fx;
    const people = [
      { key: 'ann', value: { age: 31, city: 'Oslo', tags: ['a', 'b'], profile: { vip: true }, joined: '2024-01-05' } },
      { key: 'bob', value: { age: 25, city: 'Rome', tags: ['b'], profile: { vip: false }, joined: '2023-06-01' } },
      { key: 'cid', value: { age: 40, city: 'Oslo', tags: [], joined: '2025-02-11' } },
      { key: 'dan', value: { age: '40', city: null } },
    ];
    for (const { key, value } of people) await store.put(['people'], key, value);
    const find = async (filter: Record<string, unknown>) => (await store.search(['people'], { filter })).map((item) => item.key).sort();

    expect(await find({ city: 'Oslo' })).toEqual(['ann', 'cid']);
    expect(await find({ city: null })).toEqual(['dan']);
    expect(await find({ tags: ['a', 'b'] })).toEqual(['ann']);
    expect(await find({ profile: { vip: true } })).toEqual(['ann']);
    expect(await find({ age: { $eq: 40 } })).toEqual(['cid']);
    expect(await find({ city: { $ne: 'Oslo' } })).toEqual(['bob', 'dan']);
    expect(await find({ profile: { $ne: { vip: true } } })).toEqual(['bob', 'cid', 'dan']);
    expect(await find({ age: { $gt: 30 } })).toEqual(['ann', 'cid']);
    expect(await find({ age: { $gte: 31, $lt: 40 } })).toEqual(['ann']);
    expect(await find({ age: { $lte: 25 } })).toEqual(['bob']);
    expect(await find({ age: { $gte: '40' } })).toEqual(['dan']);
    expect(await find({ joined: { $gte: '2024-01-01' } })).toEqual(['ann', 'cid']);
    expect(await find({ city: { $in: ['Rome', null] } })).toEqual(['bob', 'dan']);
    expect(await find({ age: { $nin: [31, 25] } })).toEqual(['cid', 'dan']);
    expect(await find({ city: 'Oslo', age: { $gt: 35 } })).toEqual(['cid']);
    expect(await find({ missing: { $ne: 1 } })).toEqual(['ann', 'bob', 'cid', 'dan']);

    await expect(find({ age: { $regex: '4' } })).rejects.toThrow(InputError);
    await expect(find({ age: { $gt: 1, plain: 2 } })).rejects.toThrow(InputError);
    await expect(find({ age: { $in: 40 } })).rejects.toThrow(InputError);
  });

  it('lists namespaces by prefix, suffix and "*", cut to a depth, sorted and paged', async () => {
    const { store } = fx;
    for (const namespace of [
      ['ns', 'u1', 'memories'],
      ['ns', 'u1', 'prefs'],
      ['ns', 'u2', 'memories'],
      ['ns', 'u2', 'memories', 'old'],
      ['other', 'memories'],
    ]) {
      await store.put(namespace, 'k', {});
    }
    expect(await store.listNamespaces({ prefix: ['ns'] })).toEqual([
      ['ns', 'u1', 'memories'],
      ['ns', 'u1', 'prefs'],
      ['ns', 'u2', 'memories'],
      ['ns', 'u2', 'memories', 'old'],
    ]);
    expect(await store.listNamespaces({ suffix: ['memories'] })).toEqual([['ns', 'u1', 'memories'], ['ns', 'u2', 'memories'], ['other', 'memories']]);
    expect(await store.listNamespaces({ prefix: ['ns', '*', 'memories'] })).toEqual([['ns', 'u1', 'memories'], ['ns', 'u2', 'memories'], ['ns', 'u2', 'memories', 'old']]);
    expect(await store.listNamespaces({ prefix: ['ns'], suffix: ['*', 'memories'] })).toEqual([['ns', 'u1', 'memories'], ['ns', 'u2', 'memories']]);
    expect(await store.listNamespaces({ prefix: ['ns'], maxDepth: 2 })).toEqual([['ns', 'u1'], ['ns', 'u2']]);
    expect(await store.listNamespaces({ prefix: ['ns'], limit: 2, offset: 1 })).toEqual([['ns', 'u1', 'prefs'], ['ns', 'u2', 'memories']]);
    expect(await store.listNamespaces({ prefix: ['n'] })).toEqual([]);
  });

  it('expires items after their TTL, refreshes the TTL on reads unless told not to, and sweeps', async () => {
    const { store } = fx;
    await store.putItem(['ttl'], 'short', { v: 1 }, { ttl: 1 });
    await store.putItem(['ttl'], 'forever', { v: 2 });
    expect(await fx.expiresIn(['ttl'], 'forever')).toBeNull();
    expect(await fx.expiresIn(['ttl'], 'short')).toBeGreaterThan(55);

    await fx.expireIn(['ttl'], 'short', 10);
    await store.getItem(['ttl'], 'short', { refreshTtl: false });
    expect(await fx.expiresIn(['ttl'], 'short')).toBeLessThan(11);
    await store.get(['ttl'], 'short');
    expect(await fx.expiresIn(['ttl'], 'short')).toBeGreaterThan(55);

    await fx.expireIn(['ttl'], 'short', 10);
    await store.searchItems(['ttl'], { refreshTtl: false });
    expect(await fx.expiresIn(['ttl'], 'short')).toBeLessThan(11);
    await store.search(['ttl']);
    expect(await fx.expiresIn(['ttl'], 'short')).toBeGreaterThan(55);

    await fx.expireIn(['ttl'], 'short', -1);
    expect(await store.get(['ttl'], 'short')).toBeNull();
    expect(keysOf(await store.search(['ttl']))).toEqual(['ttl:forever']);
    expect(await store.listNamespaces({ prefix: ['ttl'] })).toEqual([['ttl']]);
    expect(await store.sweepExpired()).toBe(1);
    expect(await store.sweepExpired()).toBe(0);

    // A put over an expired item that was not swept yet creates it anew.
    await store.putItem(['ttl'], 'again', { v: 1 }, { ttl: 5 });
    const before = await store.get(['ttl'], 'again');
    await fx.expireIn(['ttl'], 'again', -1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.putItem(['ttl'], 'again', { v: 2 }, { ttl: null });
    const after = await store.get(['ttl'], 'again');
    expect(after!.createdAt.getTime()).toBeGreaterThan(before!.createdAt.getTime());
    expect(await fx.expiresIn(['ttl'], 'again')).toBeNull();
  });

  it('deletes expired items in the background with the TTL sweeper', async () => {
    const { store } = fx;
    await store.putItem(['sweep'], 'gone', { v: 1 }, { ttl: 1 });
    await store.putItem(['sweep'], 'kept', { v: 1 }, { ttl: 1 });
    await fx.expireIn(['sweep'], 'gone', -1);
    const count = async () => {
      const [row] = await fx.db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM store_items WHERE prefix = 'sweep'`);
      return row!.n;
    };
    const sweeper = startStoreTtlSweeper(store, { intervalMs: 20, logger: silentLogger });
    try {
      for (let i = 0; i < 250 && (await count()) > 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await sweeper.stop();
    }
    expect(await count()).toBe(1);
    expect(await store.get(['sweep'], 'kept')).not.toBeNull();
  });

  it('is the store graph nodes read and write', async () => {
    const State = Annotation.Root({ user: Annotation<string>, seen: Annotation<number> });
    const graph = new StateGraph(State)
      .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
        const previous = await config.store!.get(['memories', state.user], 'visits');
        const seen = Number(previous?.value['count'] ?? 0) + 1;
        await config.store!.put(['memories', state.user], 'visits', { count: seen });
        return { seen };
      })
      .addEdge('__start__', 'remember')
      .compile({ checkpointer: new MemorySaver(), store: fx.store });
    await graph.invoke({ user: 'eve' }, { configurable: { thread_id: 'one' } });
    const second = await graph.invoke({ user: 'eve' }, { configurable: { thread_id: 'two' } });
    expect(second.seen).toBe(2);
    expect((await fx.store.get(['memories', 'eve'], 'visits'))?.value).toEqual({ count: 2 });
  });
});

describe('PrismaStore with a default TTL and no refresh on read', () => {
  let fx: StoreFixture;

  beforeAll(async () => {
    fx = await openStoreFixture({ ttl: { defaultTtlMinutes: 2, refreshOnRead: false } });
  });
  afterAll(() => fx?.close());

  it('gives items the default TTL unless the put names one, and refreshes only when asked', async () => {
    const { store } = fx;
    await store.put(['d'], 'default', { v: 1 });
    await store.putItem(['d'], 'never', { v: 1 }, { ttl: null });
    expect(await fx.expiresIn(['d'], 'default')).toBeGreaterThan(115);
    expect(await fx.expiresIn(['d'], 'never')).toBeNull();

    await fx.expireIn(['d'], 'default', 10);
    await store.get(['d'], 'default');
    expect(await fx.expiresIn(['d'], 'default')).toBeLessThan(11);
    await store.getItem(['d'], 'default', { refreshTtl: true });
    expect(await fx.expiresIn(['d'], 'default')).toBeGreaterThan(115);
  });
});
