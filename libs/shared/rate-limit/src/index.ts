export * from './token-buckets';
export * from './workspace-limits';
export * from './limits-env';
