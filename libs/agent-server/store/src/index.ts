export { PrismaStore, type PrismaStoreOptions, type StoreTtlConfig } from './prisma-store';
export { parseStoreSettings, DEFAULT_SWEEP_INTERVAL_MINUTES, type StoreIndexSettings, type StoreSettings } from './store-config';
export { indexedTexts, type StoreEmbeddings, type StoreIndex } from './store-index';
export { startStoreTtlSweeper, type StoreTtlSweeper } from './store-ttl-sweeper';
export { checkNamespace, joinNamespace, splitNamespace } from './store-namespace';
export { FILTER_OPERATORS, filterIssues, type FilterOperator } from './store-filter.sql';
export type { StoreGetOperation, StoreOperation, StorePutOperation, StoreSearchOperation } from './store-operations';
