import { Client } from '@langchain/langgraph-sdk';
import type { PrismaStoreOptions } from '@platform/agent-server-data-access/store';
import { VocabularyEmbeddings } from '@platform/agent-server-data-access/testing';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { startTestStoreApp, storeGatewayHeaders, type TestStoreApp } from './store-app.testing';

/** The store routes served on loopback for the describe block, and an SDK client of them. */
function storeClient(options: PrismaStoreOptions = {}): { readonly client: Client } {
  let t: TestStoreApp | undefined;
  let server: RunningHttpServer | undefined;
  const handle = { client: undefined as unknown as Client };
  beforeAll(async () => {
    t = await startTestStoreApp(options);
    server = await startHttpServer(t.app, '127.0.0.1', 0);
    handle.client = new Client({ apiUrl: server.url, apiKey: null, defaultHeaders: storeGatewayHeaders(), callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server?.close(1_000);
    await t?.close();
  });
  return handle;
}

describe('the official JS SDK (@langchain/langgraph-sdk) against the store routes', () => {
  const sdk = storeClient();

  it('puts, gets, searches, lists and deletes items', async () => {
    const { client } = sdk;
    await client.store.putItem(['memories', 'ann'], 'food', { likes: 'pizza', rating: 5 });
    await client.store.putItem(['memories', 'ann'], 'sport', { likes: 'tennis', rating: 3 }, { ttl: 60 });
    await client.store.putItem(['memories', 'bob'], 'food', { likes: 'sushi', rating: 4 }, { index: false, ttl: null });

    const item = await client.store.getItem(['memories', 'ann'], 'food');
    expect(item).toMatchObject({ namespace: ['memories', 'ann'], key: 'food', value: { likes: 'pizza', rating: 5 } });
    // The SDK copies the wire's snake_case times to camelCase.
    expect(item!.createdAt).toBe((item as unknown as { created_at: string }).created_at);
    expect(await client.store.getItem(['memories', 'ann'], 'missing')).toBeNull();
    expect(await client.store.getItem(['memories', 'ann'], 'sport', { refreshTtl: false })).toMatchObject({ key: 'sport' });

    const all = await client.store.searchItems(['memories']);
    expect(all.items.map((i) => `${i.namespace.join('.')}/${i.key}`).sort()).toEqual(['memories.ann/food', 'memories.ann/sport', 'memories.bob/food']);
    const liked = await client.store.searchItems(['memories'], { filter: { rating: { $gte: 4 } }, limit: 5, query: 'food', refreshTtl: true });
    expect(liked.items.map((i) => i.value['likes']).sort()).toEqual(['pizza', 'sushi']);
    expect(liked.items[0]!.updatedAt).toBe((liked.items[0] as unknown as { updated_at: string }).updated_at);
    expect((await client.store.searchItems(['memories', 'ann'], { limit: 1, offset: 1 })).items).toHaveLength(1);

    expect(await client.store.listNamespaces()).toEqual({ namespaces: [['memories', 'ann'], ['memories', 'bob']] });
    expect(await client.store.listNamespaces({ prefix: ['memories'], suffix: ['bob'] })).toEqual({ namespaces: [['memories', 'bob']] });
    expect(await client.store.listNamespaces({ maxDepth: 1 })).toEqual({ namespaces: [['memories']] });

    await client.store.deleteItem(['memories', 'ann'], 'food');
    expect(await client.store.getItem(['memories', 'ann'], 'food')).toBeNull();
    await expect(client.store.putItem(['memories'], 'k', { v: 1 }, { ttl: -5 })).rejects.toMatchObject({ status: 422 });
  });
});

describe('the official JS SDK: semantic search (store.index)', () => {
  const vocabulary = ['pizza', 'sushi', 'tennis', 'chess'];
  const sdk = storeClient({ index: { embeddings: new VocabularyEmbeddings(vocabulary), dims: vocabulary.length, fields: ['likes'] } });

  it('ranks by the query with a score, honours the index a put names, and leaves unindexed items unscored', async () => {
    const { client } = sdk;
    await client.store.putItem(['memories', 'ann'], 'food', { likes: 'pizza and sushi', notes: 'chess' });
    await client.store.putItem(['memories', 'ann'], 'sport', { likes: 'tennis' });
    await client.store.putItem(['memories', 'bob'], 'food', { likes: 'sushi' });
    await client.store.putItem(['memories', 'bob'], 'games', { likes: 'nothing', notes: 'chess chess' }, { index: ['notes'] });
    await client.store.putItem(['memories', 'bob'], 'secret', { likes: 'sushi' }, { index: false });

    const sushi = await client.store.searchItems(['memories'], { query: 'sushi' });
    expect(sushi.items.map((i) => [i.key, i.namespace[1], i.score === null ? null : Number(i.score!.toFixed(4))])).toEqual([
      ['food', 'bob', 1],
      ['food', 'ann', 0.7071],
      ['games', 'bob', 0],
      ['sport', 'ann', 0],
      ['secret', 'bob', null],
    ]);
    const chess = await client.store.searchItems(['memories', 'bob'], { query: 'chess', limit: 1 });
    expect(chess.items.map((i) => i.key)).toEqual(['games']);
    // Without a query: newest first, no score.
    const recent = await client.store.searchItems(['memories'], { limit: 2 });
    expect(recent.items.map((i) => [i.key, i.score])).toEqual([
      ['secret', null],
      ['games', null],
    ]);
  });
});
