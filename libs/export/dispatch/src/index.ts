export * from './dispatcher';
export * from './sweeper';
export * from './get-run-checkpoint.usecase';
export * from './report-progress.usecase';
export * from './report-failure.usecase';
export { runCheckpointOf } from './run-progress.deps';
export type { RunProgressDeps } from './run-progress.deps';
