export * from './run-select-fields';
export { runV2Json, previewText, PREVIEW_CHARS, type RunV2, type RunV2Row } from './run-v2-json';
export { runV2Select } from './run-v2.columns';
export * from './run-v2-requests.schema';
export * from './query-runs-v2.usecase';
export * from './retrieve-run-v2.usecase';
export * from './query-traces-v2.usecase';
export * from './list-trace-runs-v2.usecase';
export type { ReadRunsV2Deps, V2Caller, V2Page, TraceV2 } from './read-runs-v2.deps';
