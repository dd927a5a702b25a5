// LangGraph's `BaseStore` on the store tables (`store_items`, `store_vectors`), with what callers need to check a
// namespace or a filter before they reach it. An entry of its own, apart from the lib's index: importing it loads
// @langchain/langgraph-checkpoint, which the Agent Server may load only after it chose the deployment's own copy
// (apps/agent-server/src/deployment-packages.ts), while it opens and migrates its database before that.
export { PrismaStore, type PrismaStoreOptions, type StoreTtlConfig } from './store/prisma-store';
export { indexedTexts, type StoreEmbeddings, type StoreIndex } from './store/store-index';
export { startStoreTtlSweeper, type StoreTtlSweeper } from './store/store-ttl-sweeper';
export { checkNamespace, joinNamespace, splitNamespace } from './store/store-namespace';
export { FILTER_OPERATORS, filterIssues, type FilterOperator } from './store/store-filter.sql';
export type { StoreGetOperation, StoreOperation, StorePutOperation, StoreSearchOperation } from './store/store-operations';
