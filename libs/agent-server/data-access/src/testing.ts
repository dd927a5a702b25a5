// Test-only entry point (`@platform/agent-server-data-access/testing`): a migrated database of the test's own, a store
// on one, deterministic embeddings. Loads @langchain/langgraph-checkpoint (the store).
export { openTestAgentServerDatabase, type TestAgentServerDatabase } from './agent-server-database.testing';
export { openStoreFixture, type StoreFixture } from './store/store.testing';
export { VocabularyEmbeddings } from './store/store-index.testing';
