export * from './graph-registry';
export * from './serialize';
