import type { Response } from 'express';
import type { z } from 'zod';
import type { Item, SearchItem } from '@langchain/langgraph-checkpoint';
import type { PrismaStore } from '@platform/agent-server-data-access/store';
import { parseRequest } from '@platform/http-server';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { accessOf } from '../../common/deployment-auth.middleware';
import { operationsOf } from '../../common/responses.schema';
import {
  deleteItemBody,
  getItemQuery,
  itemResponse,
  listNamespacesBody,
  namespacesResponse,
  putItemBody,
  searchItemsBody,
  searchItemsResponse,
} from './store.schemas';

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

const _item: SameShape<z.output<typeof itemResponse>, ReturnType<typeof itemJson>> = true;
const _searchItem: SameShape<z.output<typeof searchItemsResponse>['items'][number], ReturnType<typeof searchItemJson>> = true;

const op = operationsOf('Store');

const itemsFound = { 200: { description: 'The items, best match first with a query', schema: searchItemsResponse } };

/**
 * The Store (long-term memory): `/store/items*` and `/store/namespaces` of the Agent Server API. Under the
 * deployment's auth, the `store:*` handlers decide; as in the reference, a put, get or delete goes to the namespace
 * and key the handler left in its value (e.g. prefixed with the user), and filters apply to `{...value, namespace, key}`.
 */
export function storeRoutes(deps: StoreRoutesDeps): DeclaredRoute[] {
  const { store } = deps;
  // What a handler left in the value is checked like the request was (only where a handler could have run).
  const reparsed = <T>(res: Response, schema: z.ZodType<T>, value: unknown, parsed: T, where?: 'query'): T =>
    accessOf(res).caller ? parseRequest(schema, value, where) : parsed;

  const putItem = route(
    { ...op('put', '/store/items', 'put_item', 'Store or replace an item'), body: putItemBody, responses: { 204: { description: 'Stored' } } },
    async ({ body }, _req, res) => {
      const value = { namespace: body.namespace, key: body.key, value: body.value };
      const visible = await accessOf(res).authorize('store:put', value);
      const item = reparsed(res, putItemBody, { ...body, ...value }, body);
      await store.putItem(item.namespace, item.key, item.value, { index: item.index ?? undefined, ttl: item.ttl, visible });
      res.status(204).end();
    },
  );

  // A missing item is `200 null`, as the reference servers answer and the SDK's `getItem` (Item | null) expects.
  const getItem = route(
    { ...op('get', '/store/items', 'get_item', 'Get an item'), query: getItemQuery, responses: { 200: { description: 'The item, or null when there is none', schema: itemResponse.nullable() } } },
    async ({ query }, _req, res) => {
      const value = { namespace: query.namespace, key: query.key };
      const visible = await accessOf(res).authorize('store:get', value);
      const { namespace, key } = reparsed(res, deleteItemBody, value, value, 'query');
      const item = await store.getItem(namespace, key, { refreshTtl: query.refresh_ttl, visible });
      res.json(item ? itemJson(item) : null);
    },
  );

  const deleteItem = route(
    { ...op('delete', '/store/items', 'delete_item', 'Delete an item'), body: deleteItemBody, responses: { 204: { description: 'Deleted' } } },
    async ({ body }, _req, res) => {
      const value = { namespace: body.namespace, key: body.key };
      const visible = await accessOf(res).authorize('store:delete', value);
      const { namespace, key } = reparsed(res, deleteItemBody, value, body);
      await store.deleteItem(namespace, key, { visible });
      res.status(204).end();
    },
  );

  const searchItems = route(
    { ...op('post', '/store/items/search', 'search_items', 'Search items under a namespace prefix'), body: searchItemsBody, responses: itemsFound },
    async ({ body }, _req, res) => {
      const page = { limit: body.limit ?? 10, offset: body.offset ?? 0 };
      const visible = await accessOf(res).authorize('store:search', { namespace: body.namespace_prefix, filter: body.filter, query: body.query, ...page });
      const items = await store.searchItems(body.namespace_prefix ?? [], {
        filter: body.filter,
        ...page,
        query: body.query,
        refreshTtl: body.refresh_ttl,
        visible,
      });
      res.json({ items: items.map(searchItemJson) });
    },
  );

  const listNamespaces = route(
    { ...op('post', '/store/namespaces', 'list_namespaces', 'List namespaces'), body: listNamespacesBody, responses: { 200: { description: 'The namespaces', schema: namespacesResponse } } },
    async ({ body }, _req, res) => {
      const page = { limit: body.limit ?? 100, offset: body.offset ?? 0 };
      const visible = await accessOf(res).authorize('store:list_namespaces', { namespace: body.prefix, suffix: body.suffix, max_depth: body.max_depth, ...page });
      const namespaces = await store.findNamespaces({ prefix: body.prefix, suffix: body.suffix, maxDepth: body.max_depth, ...page, visible });
      res.json({ namespaces });
    },
  );

  return [putItem, getItem, deleteItem, searchItems, listNamespaces];
}
