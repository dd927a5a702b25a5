export * from './dispatcher';
export * from './sweeper';
export * from './run-progress.usecases';
