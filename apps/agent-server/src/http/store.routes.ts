import { Router } from 'express';
import type { Item, SearchItem } from '@langchain/langgraph-checkpoint';
import type { PrismaStore } from '@platform/agent-server-store';
import { parseRequest } from '@platform/http-server';
import { deleteItemBody, getItemQuery, listNamespacesBody, putItemBody, searchItemsBody } from './store.schemas';

export interface StoreRoutesDeps {
  store: PrismaStore;
}

const itemJson = (item: Item) => ({
  namespace: item.namespace,
  key: item.key,
  value: item.value,
  created_at: item.createdAt.toISOString(),
  updated_at: item.updatedAt.toISOString(),
});

// The relevance score of a search with a query (store.index set); null, as the reference servers send, when unranked.
const searchItemJson = (item: SearchItem) => ({ ...itemJson(item), score: item.score ?? null });

/** The Store (long-term memory): `/store/items*` and `/store/namespaces` of the Agent Server API. */
export function storeRoutes(deps: StoreRoutesDeps): Router {
  const { store } = deps;
  const router = Router();

  router.put('/store/items', async (req, res) => {
    const body = parseRequest(putItemBody, req.body ?? {});
    await store.putItem(body.namespace, body.key, body.value, { index: body.index ?? undefined, ttl: body.ttl });
    res.status(204).end();
  });

  // A missing item is `200 null`, as the reference servers answer and the SDK's `getItem` (Item | null) expects.
  router.get('/store/items', async (req, res) => {
    const query = parseRequest(getItemQuery, req.query, 'query');
    const item = await store.getItem(query.namespace, query.key, { refreshTtl: query.refresh_ttl });
    res.json(item ? itemJson(item) : null);
  });

  router.delete('/store/items', async (req, res) => {
    const body = parseRequest(deleteItemBody, req.body ?? {});
    await store.deleteItem(body.namespace, body.key);
    res.status(204).end();
  });

  router.post('/store/items/search', async (req, res) => {
    const body = parseRequest(searchItemsBody, req.body ?? {});
    const items = await store.searchItems(body.namespace_prefix ?? [], {
      filter: body.filter,
      limit: body.limit ?? 10,
      offset: body.offset ?? 0,
      query: body.query,
      refreshTtl: body.refresh_ttl,
    });
    res.json({ items: items.map(searchItemJson) });
  });

  router.post('/store/namespaces', async (req, res) => {
    const body = parseRequest(listNamespacesBody, req.body ?? {});
    const namespaces = await store.findNamespaces({
      prefix: body.prefix,
      suffix: body.suffix,
      maxDepth: body.max_depth,
      limit: body.limit ?? 100,
      offset: body.offset ?? 0,
    });
    res.json({ namespaces });
  });

  return router;
}
