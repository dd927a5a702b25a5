export * from './build-error';
export * from './build-revision';
export * from './git-checkout';
export * from './langgraph-config';
export * from './dependencies';
export * from './failure-excerpt';
export * from './lockfile-install';
export { runCommand, tail, type CommandOptions, type CommandResult } from './run-command';
export { storeSourceUpload, uploadsPrefix, type SourceUpload, type StoredSource } from './source-upload';
