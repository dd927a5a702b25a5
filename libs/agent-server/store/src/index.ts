// The store itself (`PrismaStore`, its namespaces, filters, embeddings and TTL sweeper) is in the data-access lib,
// behind its `store` entry; this lib reads `langgraph.json`'s `store` section.
export {
  checkNamespace,
  FILTER_OPERATORS,
  filterIssues,
  indexedTexts,
  joinNamespace,
  PrismaStore,
  splitNamespace,
  startStoreTtlSweeper,
  type FilterOperator,
  type PrismaStoreOptions,
  type StoreEmbeddings,
  type StoreGetOperation,
  type StoreIndex,
  type StoreOperation,
  type StorePutOperation,
  type StoreSearchOperation,
  type StoreTtlConfig,
  type StoreTtlSweeper,
} from '@platform/agent-server-data-access/store';
export { parseStoreSettings, DEFAULT_SWEEP_INTERVAL_MINUTES, type StoreIndexSettings, type StoreSettings } from './store-config';
