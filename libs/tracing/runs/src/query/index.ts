export * from './run-query.types';
export { encodeRunQueryCursor, decodeRunQueryCursor } from './run-query-cursor';
export { compileRunQueryFilter, validateRunQueryFilters, type RunQueryFilterName } from './run-query-filters';
export { buildRunQuerySql } from './run-query.sql';
export { RunQueryRepository } from './run-query.repository';
export { queryRuns, type RunQueryPage } from './query-runs.usecase';
export { runQueryRequestSchema, runFilterValidationSchema, toRunQuery, type RunQueryRequest } from './run-query-request.schema';
