export * from './run-stream.types';
export { selectedRunFields } from './run-stream-columns';
export { buildRunPageCopySql, buildRunPageSql, type CompiledRunFilter, type RunPageRequest } from './run-page.sql';
export { RunPageRepository, type RunPageReader } from './run-page.repository';
export { MessageRunPage, NdjsonPageWriter, NdjsonRunPage, releaseRunBatch, type ProtoRunCursor, type RunPage, type NdjsonRunRow } from './run-pages';
export { PageBufferPool, type PageBufferPoolOptions } from './page-buffer-pool';
export { streamRunBatches, type StreamRunsDeps } from './stream-runs.usecase';
export { RUN_PAGE_FILTER_FIRST_PARAM } from './run-page.sql';
