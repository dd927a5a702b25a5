export * from './load-config';
export * from './env-types';
export * from './common-config';
export * from './data-dir';
