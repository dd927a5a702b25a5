import { Client } from '@langchain/langgraph-sdk';
import { startHttpServer, type RunningHttpServer } from '@platform/http-server';
import { startTestStoreApp, storeGatewayHeaders, type TestStoreApp } from './store-app.testing';

jest.setTimeout(60_000);

describe('the official JS SDK (@langchain/langgraph-sdk) against the store routes', () => {
  let t: TestStoreApp;
  let server: RunningHttpServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestStoreApp();
    server = await startHttpServer(t.app, '127.0.0.1', 0);
    client = new Client({ apiUrl: server.url, apiKey: null, defaultHeaders: storeGatewayHeaders(), callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    await server?.close(1_000);
    await t?.close();
  });

  it('puts, gets, searches, lists and deletes items', async () => {
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
