import { NotAllowedError, NotFoundError } from '@platform/errors';
import { parseAccessFilter } from '../access-filter';
import { VocabularyEmbeddings } from './store-index.testing';
import { openStoreFixture, type StoreFixture } from './store.testing';

// PGlite starts in a few seconds (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

// A deployment's store handler as LangGraph's docs write it: each user's items under a namespace naming them.
const ann = parseAccessFilter({ namespace: { $contains: 'ann' } });
const keysOf = (items: { namespace: string[]; key: string }[]) => items.map((item) => `${item.namespace.join('/')}:${item.key}`).sort();

describe.each([
  ['without an index', false],
  ['with an index', true],
])("PrismaStore with the caller's filter (the deployment's auth), %s", (_label, indexed) => {
  let fx: StoreFixture;

  beforeAll(async () => {
    const vocabulary = ['pizza', 'rain'];
    fx = await openStoreFixture(indexed ? { index: { embeddings: new VocabularyEmbeddings(vocabulary), dims: vocabulary.length, fields: ['text'] } } : {});
    await fx.store.putItem(['ann', 'notes'], 'a', { text: 'pizza' });
    await fx.store.putItem(['bob', 'notes'], 'b', { text: 'rain' });
    await fx.store.putItem(['shared'], 'tagged', { text: 'pizza', namespace: ['not', 'this'] });
  });
  afterAll(() => fx?.close());

  it('gets what the filter lets through, a 404 for what it hides, null for what is missing', async () => {
    expect(await fx.store.getItem(['ann', 'notes'], 'a', { visible: ann })).toMatchObject({ key: 'a', value: { text: 'pizza' } });
    await expect(fx.store.getItem(['bob', 'notes'], 'b', { visible: ann })).rejects.toThrow(new NotFoundError('Item not found'));
    // The item's own namespace, not a `namespace` field of its value, is what the filter sees.
    await expect(fx.store.getItem(['shared'], 'tagged', { visible: ann })).rejects.toThrow(NotFoundError);
    expect(await fx.store.getItem(['ann', 'notes'], 'missing', { visible: ann })).toBeNull();
  });

  it('searches and lists namespaces among what the filter lets through', async () => {
    expect(keysOf(await fx.store.searchItems([], { visible: ann }))).toEqual(['ann/notes:a']);
    expect(keysOf(await fx.store.searchItems([], { query: 'rain', visible: ann }))).toEqual(['ann/notes:a']);
    expect(keysOf(await fx.store.searchItems(['ann', 'notes']))).toEqual(['ann/notes:a']);
    expect(keysOf(await fx.store.searchItems(['bob']))).toEqual(['bob/notes:b']);
    expect(await fx.store.findNamespaces({ visible: ann })).toEqual([['ann', 'notes']]);
    expect(await fx.store.findNamespaces({ maxDepth: 1, visible: ann })).toEqual([['ann']]);
  });

  it('puts only items the filter lets through, and never over a hidden one', async () => {
    await expect(fx.store.putItem(['bob', 'notes'], 'new', { text: 'x' }, { visible: ann })).rejects.toThrow(new NotAllowedError('Not authorized'));
    await fx.store.putItem(['ann', 'notes'], 'a', { text: 'pizza again' }, { visible: ann });
    // A filter on the value: Ann's put over Bob's item would pass it, yet the item is Bob's: 404, and it stays his.
    const owned = parseAccessFilter({ owner: 'ann' });
    await fx.store.putItem(['board'], 'k', { owner: 'bob', text: 'rain' });
    await expect(fx.store.putItem(['board'], 'k', { owner: 'ann', text: 'pizza' }, { visible: owned })).rejects.toThrow(new NotFoundError('Item not found'));
    expect((await fx.store.getItem(['board'], 'k'))?.value).toEqual({ owner: 'bob', text: 'rain' });
    // Once it expired it is gone, and the put makes the item anew.
    await fx.expireIn(['board'], 'k', -1);
    await fx.store.putItem(['board'], 'k', { owner: 'ann', text: 'pizza' }, { visible: owned });
    expect((await fx.store.getItem(['board'], 'k', { visible: owned }))?.value).toEqual({ owner: 'ann', text: 'pizza' });
    expect((await fx.store.getItem(['ann', 'notes'], 'a'))?.value).toEqual({ text: 'pizza again' });
  });

  it('deletes what the filter lets through; a hidden item is a 404, a missing one outside it a 403', async () => {
    await fx.store.putItem(['ann', 'tmp'], 'gone', { text: 'pizza' });
    await fx.store.deleteItem(['ann', 'tmp'], 'gone', { visible: ann });
    expect(await fx.store.getItem(['ann', 'tmp'], 'gone')).toBeNull();
    await fx.store.deleteItem(['ann', 'tmp'], 'gone', { visible: ann });
    await expect(fx.store.deleteItem(['bob', 'notes'], 'b', { visible: ann })).rejects.toThrow(new NotFoundError('Item not found'));
    expect(await fx.store.getItem(['bob', 'notes'], 'b')).not.toBeNull();
    await expect(fx.store.deleteItem(['bob', 'notes'], 'missing', { visible: ann })).rejects.toThrow(NotAllowedError);
  });
});
