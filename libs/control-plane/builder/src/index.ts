export * from './build-error';
export * from './build-revision';
export * from './git-checkout';
export * from './langgraph-config';
export * from './dependencies';
export { runCommand, tail, type CommandOptions, type CommandResult } from './run-command';
