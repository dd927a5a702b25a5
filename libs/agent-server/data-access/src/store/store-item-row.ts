import type { Item, SearchItem } from '@langchain/langgraph-checkpoint';
import { splitNamespace } from './store-namespace';

/** A `store_items` row as the store's queries select it. */
export interface StoreItemRow {
  prefix: string;
  key: string;
  value: unknown;
  created_at: Date | string;
  updated_at: Date | string;
  /** Searches: the similarity to the query (null when unranked). */
  score?: number | null;
}

export const ITEM_COLUMNS = 'prefix, key, value, created_at, updated_at';

// Both adapters (pg, PGlite) hand JSONB back parsed and timestamps as Dates.
export function toItem(row: StoreItemRow): Item {
  return {
    namespace: splitNamespace(row.prefix),
    key: row.key,
    value: (row.value ?? {}) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export const toSearchItem = (row: StoreItemRow): SearchItem => ({ ...toItem(row), score: row.score ?? undefined });
