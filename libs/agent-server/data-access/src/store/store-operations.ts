import type { GetOperation, ListNamespacesOperation, PutOperation, SearchOperation } from '@langchain/langgraph-checkpoint';

/** A get that may push the item's expiry ahead (`refreshTtl`; default: the store's `refreshOnRead`). */
export interface StoreGetOperation extends GetOperation {
  refreshTtl?: boolean;
}

/** A search that may push the found items' expiry ahead (`refreshTtl`; default: the store's `refreshOnRead`). */
export interface StoreSearchOperation extends SearchOperation {
  refreshTtl?: boolean;
}

/**
 * A put (or, with `value: null`, a delete). `ttl` is minutes from now: a number sets it, `null` means the item
 * never expires, absent means the store's default TTL.
 */
export interface StorePutOperation extends PutOperation {
  ttl?: number | null;
}

export type StoreOperation = StoreGetOperation | StoreSearchOperation | StorePutOperation | ListNamespacesOperation;

export const isSearch = (op: StoreOperation): op is StoreSearchOperation => 'namespacePrefix' in op;
export const isPut = (op: StoreOperation): op is StorePutOperation => 'value' in op;
export const isGet = (op: StoreOperation): op is StoreGetOperation => 'key' in op && !('value' in op);
