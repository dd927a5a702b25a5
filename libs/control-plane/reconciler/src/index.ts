export * from './reconciler';
export * from './reconciler-deps';
export * from './reconciler.store';
export * from './deployment-env';
export type { AbortReason } from './abort-reasons';
