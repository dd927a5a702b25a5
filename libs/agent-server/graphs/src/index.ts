export * from './graph-registry';
export * from './serialize';
export {
  loadLangGraphProject,
  type GraphDefaults,
  type LangGraphProject,
  type LoadLangGraphProjectOptions,
  type ProjectAuthConfig,
} from './project/load-langgraph-project';
export { importExport, platformNodeModules } from './project/graph-module-loader';
export { missingEnvFileNote } from './project/project-env';
export { parseGraphSpec, type GraphSpec } from './project/graph-spec';
export type { HttpConfig } from './project/langgraph-config.schema';
export type { AssistantGraphSchemas, GraphSchema, JsonSchema } from './introspection/graph-schema';
export { toAssistantGraphSchemas } from './introspection/graph-schema';
export { runtimeGraphSchema } from './introspection/runtime-graph-schema';
export { graphSchema, prepareTypeSchemas, subgraphSchemas } from './introspection/graph-introspection';
export { drawGraph, type GraphDrawing } from './introspection/graph-drawing';
export { createTypeScriptSchemaSource, type TypeScriptSchemaSource, type TypeScriptSchemaSourceOptions } from './introspection/typescript/typescript-schema-source';
export { loadStoreEmbeddings, type LoadedEmbeddings } from './project/store-embeddings';
export { LANGGRAPH_VERSION } from './langgraph-version';
export { bundleGraphUi, uiGlobalName, type UiAsset } from './ui/bundle-graph-ui';
