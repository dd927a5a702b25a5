export * from './graph-registry';
export * from './serialize';
export {
  loadLangGraphProject,
  type GraphDefaults,
  type LangGraphProject,
  type LoadLangGraphProjectOptions,
  type ProjectAuthConfig,
} from './project/load-langgraph-project';
export { graphSchemas, type GraphSchemas } from './introspection/graph-schemas';
export type { JsonSchema } from './introspection/annotation-schema';
export { drawGraph, subgraphSchemas, type GraphDrawing } from './introspection/graph-drawing';
export { loadStoreEmbeddings, type LoadedEmbeddings } from './project/store-embeddings';
export { importExport } from './project/graph-module-loader';
export { parseGraphSpec, type GraphSpec } from './project/graph-spec';
