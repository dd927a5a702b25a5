export * from './run-select-fields';
export { runV2Json, previewText, PREVIEW_CHARS, type RunV2, type RunV2Row } from './run-v2-json';
export { runV2Select } from './run-v2.columns';
export * from './run-v2-requests.schema';
export * from './read-runs-v2.usecases';
