export * from './reconciler';
export * from './reconciler-deps';
export * from './deployment-env';
export type { AbortReason } from './abort-reasons';
