import { VocabularyEmbeddings } from './store-index.testing';
import { openStoreFixture, type StoreFixture } from './store.testing';

// PGlite starts in a few seconds (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const VOCABULARY = ['pizza', 'pasta', 'cheese', 'rain', 'sun', 'snow', 'code', 'bug'];
const keysOf = (items: { key: string }[]) => items.map((item) => item.key);

describe('PrismaStore semantic search (store.index)', () => {
  let fx: StoreFixture;
  let embeddings: VocabularyEmbeddings;

  beforeAll(async () => {
    embeddings = new VocabularyEmbeddings(VOCABULARY);
    fx = await openStoreFixture({ index: { embeddings, dims: VOCABULARY.length, fields: ['text'] } });
  });
  afterAll(() => fx?.close());

  const vectorRows = async (prefix: string) =>
    fx.db.prisma.$queryRawUnsafe<{ key: string; field_path: string; n: number }[]>(
      `SELECT key, field_path, cardinality(embedding)::int AS n FROM store_vectors WHERE prefix = $1 ORDER BY key, field_path`,
      prefix,
    );

  it('ranks by cosine similarity to the query, with the score, and puts unindexed items last', async () => {
    const { store } = fx;
    await store.put(['food'], 'margherita', { text: 'pizza with cheese' });
    await store.put(['food'], 'carbonara', { text: 'pasta pasta with cheese' });
    await store.put(['food'], 'weather', { text: 'rain then sun' });
    await store.put(['food'], 'note', { text: 'pizza pizza pizza' }, false);
    await store.put(['food'], 'untexted', { title: 'no text field' });

    const ranked = await store.search(['food'], { query: 'pizza', limit: 10 });
    // Equal scores (and the unranked) newest first.
    expect(keysOf(ranked)).toEqual(['margherita', 'weather', 'carbonara', 'untexted', 'note']);
    expect(ranked[0].score).toBeCloseTo(1 / Math.sqrt(2), 6);
    const byKey = Object.fromEntries(ranked.map((item) => [item.key, item.score]));
    expect(byKey.carbonara).toBe(0);
    expect(byKey.weather).toBe(0);
    // Put with index false, or without the indexed field: no vector, no score, after every ranked item.
    expect(byKey.note).toBeUndefined();
    expect(byKey.untexted).toBeUndefined();
    expect(await vectorRows('food')).toEqual([
      { key: 'carbonara', field_path: 'text', n: 8 },
      { key: 'margherita', field_path: 'text', n: 8 },
      { key: 'weather', field_path: 'text', n: 8 },
    ]);

    const cheesy = await store.search(['food'], { query: 'cheese pasta' });
    expect(keysOf(cheesy.slice(0, 2))).toEqual(['carbonara', 'margherita']);
    expect(cheesy[0].score!).toBeGreaterThan(cheesy[1].score!);
    // Pages follow the ranking.
    expect(keysOf(await store.search(['food'], { query: 'cheese pasta', limit: 1, offset: 1 }))).toEqual(['margherita']);
    // Without a query nothing is ranked.
    expect((await store.search(['food'])).every((item) => item.score === undefined)).toBe(true);
  });

  it('embeds the fields a put names instead, one vector per text of a wildcard, and scores an item by its best field', async () => {
    const { store } = fx;
    await store.putItem(['docs'], 'forecast', { title: 'snow', body: 'code code', tags: ['rain', 'sun'] }, { index: ['title', 'tags[*]'] });
    await store.putItem(['docs'], 'debugging', { title: 'code', body: 'bug', tags: [] }, { index: ['$'] });
    expect(await vectorRows('docs')).toEqual([
      { key: 'debugging', field_path: '$', n: 8 },
      { key: 'forecast', field_path: 'tags[*].0', n: 8 },
      { key: 'forecast', field_path: 'tags[*].1', n: 8 },
      { key: 'forecast', field_path: 'title', n: 8 },
    ]);
    const sunny = await store.search(['docs'], { query: 'sun' });
    expect(sunny[0]).toMatchObject({ key: 'forecast', score: expect.closeTo(1, 6) });
    // `body` was not indexed: the code query finds only the item whose whole value was embedded.
    const coding = await store.search(['docs'], { query: 'code' });
    expect(coding[0].key).toBe('debugging');
    expect(coding[1]).toMatchObject({ key: 'forecast', score: 0 });
  });

  it('combines the query with the namespace prefix and the filter', async () => {
    const { store } = fx;
    await store.put(['menu', 'lunch'], 'a', { text: 'pizza', price: 9 });
    await store.put(['menu', 'dinner'], 'b', { text: 'pizza cheese', price: 14 });
    await store.put(['menu', 'dinner'], 'c', { text: 'pasta', price: 12 });
    expect(keysOf(await store.search(['menu', 'dinner'], { query: 'pizza' }))).toEqual(['b', 'c']);
    expect(keysOf(await store.search(['menu'], { query: 'pizza', filter: { price: { $gt: 10 } } }))).toEqual(['b', 'c']);
  });

  it('replaces an item’s vectors when it is put again, and drops them with it', async () => {
    const { store } = fx;
    await store.put(['swap'], 'k', { text: 'rain' });
    expect((await store.search(['swap'], { query: 'rain' }))[0].score).toBeCloseTo(1, 6);
    await store.put(['swap'], 'k', { text: 'sun' });
    expect((await store.search(['swap'], { query: 'rain' }))[0].score).toBe(0);
    await store.put(['swap'], 'k', { text: 'sun' }, false);
    expect(await vectorRows('swap')).toEqual([]);
    await store.put(['swap'], 'k', { text: 'sun' });
    await store.delete(['swap'], 'k');
    expect(await vectorRows('swap')).toEqual([]);
  });

  it('embeds each distinct text once per put, and a batch’s puts in one call', async () => {
    const { store } = fx;
    const before = embeddings.documents.length;
    await store.putItem(['dup'], 'k', { a: 'snow', b: 'snow', c: 'sun' }, { index: ['a', 'b', 'c'] });
    expect(embeddings.documents.slice(before)).toEqual([['snow', 'sun']]);
    expect((await vectorRows('dup')).map((r) => r.field_path)).toEqual(['a', 'b', 'c']);

    await store.batch([
      { namespace: ['dup'], key: 'x', value: { text: 'rain' } },
      { namespace: ['dup'], key: 'y', value: { text: 'sun' } },
      { namespace: ['dup'], key: 'z', value: { text: 'rain snow' }, index: false },
    ]);
    expect(embeddings.documents.slice(before + 1)).toEqual([['rain', 'sun']]);
    expect((await store.search(['dup'], { query: 'rain' }))[0]).toMatchObject({ key: 'x', score: expect.closeTo(1, 6) });
    // A put that would be refused costs no embedding.
    await expect(store.put(['bad.label'], 'k', { text: 'rain' })).rejects.toThrow();
    expect(embeddings.documents).toHaveLength(before + 2);
  });
});

describe('PrismaStore with embeddings of the wrong size', () => {
  let fx: StoreFixture;

  beforeAll(async () => {
    const embeddings = new VocabularyEmbeddings(VOCABULARY);
    fx = await openStoreFixture({ index: { embeddings, dims: 1536, fields: ['$'] } });
  });
  afterAll(() => fx?.close());

  it('refuses the put (nothing written) and the query, naming store.index.dims', async () => {
    await expect(fx.store.put(['bad'], 'k', { text: 'pizza' })).rejects.toThrow(/8 dimensions, not 1536 \(store\.index\.dims\)/);
    expect(await fx.store.get(['bad'], 'k')).toBeNull();
    await expect(fx.store.search(['bad'], { query: 'pizza' })).rejects.toThrow(/store\.index\.dims/);
  });
});
