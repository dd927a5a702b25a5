export * from './token-buckets';
export * from './workspace-limits';
